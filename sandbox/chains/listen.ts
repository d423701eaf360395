import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on `port` of `host` (0: a free port) and resolves with the port bound; rejects on a bind error. */
export function listen(server: http.Server, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Starts listening; when that fails, stops what it fronts (the node) before throwing: nothing is left running. */
export async function listenOrStop(
  listening: () => Promise<unknown>,
  stop: () => Promise<unknown>,
): Promise<void> {
  try {
    await listening();
  } catch (error) {
    await stop();
    throw error;
  }
}
