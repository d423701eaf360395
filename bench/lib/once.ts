/**
 * A stop that the part calls when it is done and the cleanup calls again on the way out (or first,
 * when interrupted): it runs once, and every call waits for that run.
 */
export function once(step: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= step().then(() => undefined));
}
