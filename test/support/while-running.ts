/** What a test starts for a while and must stop: a server, a harness, a paid API. */
type Stoppable = { stop(): Promise<unknown> };

/**
 * Runs `use` on what `starting` starts, then stops it whether `use` passed or threw: a failing
 * test must not leave its extra server running under the rest of the file.
 */
export async function whileRunning<T extends Stoppable, R>(
  starting: Promise<T>,
  use: (started: T) => Promise<R>,
): Promise<R> {
  const started = await starting;
  try {
    return await use(started);
  } finally {
    await started.stop();
  }
}
