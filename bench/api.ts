type CallOptions = { token?: string; body?: unknown; expect?: number };

/** A small client for the server under test; an unexpected status is an error (with the body). */
export function createApi(baseUrl: string) {
  async function send(method: string, urlPath: string, opts: CallOptions): Promise<Response> {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (opts.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${baseUrl}${urlPath}`, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const expected = opts.expect ?? 200;
    if (res.status !== expected)
      throw new Error(
        `${method} ${urlPath}: expected ${expected}, got ${res.status}: ${(await res.text()).slice(0, 300)}`,
      );
    return res;
  }
  return {
    async json<T>(method: string, urlPath: string, opts: CallOptions = {}): Promise<T> {
      return (await (await send(method, urlPath, opts)).json()) as T;
    },
    /** GET a binary or text body, read to the end; returns its size. */
    async bytes(urlPath: string): Promise<number> {
      return (await (await send('GET', urlPath, {})).arrayBuffer()).byteLength;
    },
  };
}

export type Api = ReturnType<typeof createApi>;
