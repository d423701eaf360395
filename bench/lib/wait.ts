import { setTimeout as sleep } from 'node:timers/promises';
import { errorMessage } from './cleanup';
import { seconds } from './progress';

/** Polls `check` every 200 ms until it is true; an error thrown by it means "not yet" (the last is reported). */
export async function waitFor(what: string, timeoutMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      if (await check()) return;
    } catch (error) {
      last = errorMessage(error); // not there yet
    }
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${seconds(timeoutMs)}${last ? ` (last: ${last})` : ''}`);
    await sleep(200);
  }
}

export async function answers200(url: string): Promise<boolean> {
  const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
  await res.arrayBuffer();
  return res.status === 200;
}
