import net from 'node:net';

/**
 * A TCP relay in front of a real server (PostgreSQL, say), to break the way between them:
 * - `cut()` drops every connection and refuses new ones, as a stopped host would; `restore()`
 *   listens again on the same port;
 * - `reset()` ends every connection with a TCP reset (RST), as a middlebox that forgets them;
 * - `partition()` stops forwarding in both directions without closing anything, and holds new
 *   connections unanswered, as a network that drops packets does; `heal()` forwards again,
 *   everything held included;
 * - `blackHole()` keeps every connection open and accepts new ones, but drops every byte either
 *   way, as a relay that forgets what it carries: a statement sent meanwhile never arrives, nor
 *   does its answer, and the connection is out of step afterwards. `heal()` forwards again.
 */
export async function startTcpProxy(target: { host: string; port: number }) {
  const pairs = new Set<{ client: net.Socket; upstream: net.Socket | null }>();
  let partitioned = false;
  let dropping = false;
  const drop = () => {};

  const join = (pair: { client: net.Socket; upstream: net.Socket | null }) => {
    const upstream = net.connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => upstream.destroy());
    upstream.on('close', () => pair.client.destroy());
    pair.client.on('close', () => upstream.destroy());
    pair.client.pipe(upstream).pipe(pair.client);
  };
  const server = net.createServer((client) => {
    const pair = { client, upstream: null as net.Socket | null };
    pairs.add(pair);
    client.on('error', () => client.destroy());
    client.on('close', () => pairs.delete(pair));
    if (partitioned) client.pause();
    else if (dropping) client.on('data', drop);
    else join(pair);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const close = () =>
    server.listening ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
  /** Both ends of every connection (the upstream one once it is joined) meet the same fate. */
  const eachSocket = (act: (socket: net.Socket) => void) => {
    for (const { client, upstream } of pairs) {
      act(client);
      if (upstream) act(upstream);
    }
  };

  return {
    port,
    async cut() {
      eachSocket((socket) => socket.destroy());
      await close();
    },
    async restore() {
      await listen(port);
    },
    reset() {
      eachSocket((socket) => socket.resetAndDestroy());
    },
    partition() {
      partitioned = true;
      eachSocket((socket) => {
        socket.unpipe();
        socket.pause();
      });
    },
    blackHole() {
      dropping = true;
      eachSocket((socket) => {
        socket.unpipe();
        socket.on('data', drop);
      });
    },
    heal() {
      partitioned = false;
      dropping = false;
      eachSocket((socket) => socket.off('data', drop));
      for (const pair of pairs) {
        if (!pair.upstream) {
          join(pair);
          pair.client.resume();
          continue;
        }
        pair.client.pipe(pair.upstream).pipe(pair.client);
        pair.client.resume();
        pair.upstream.resume();
      }
    },
    async stop() {
      eachSocket((socket) => socket.destroy());
      await close();
    },
  };
}
