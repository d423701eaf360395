import autocannon from 'autocannon';

export type Load = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: () => string;
  connections: number;
  seconds: number;
};

export type Measured = { rps: number; p50: number; p99: number; errors: number };

/** autocannon on one URL for `seconds`; errors are failed, timed-out and non-2xx requests together. */
export async function load(l: Load): Promise<Measured> {
  const body = l.body;
  const result = await autocannon({
    url: l.url,
    connections: l.connections,
    duration: l.seconds,
    pipelining: 1,
    requests: [
      {
        method: l.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...l.headers },
        ...(body ? { setupRequest: (req) => ({ ...req, body: body() }) } : {}),
      } as autocannon.Request,
    ],
  });
  const errors = result.errors + result.timeouts + result.non2xx;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors };
}
