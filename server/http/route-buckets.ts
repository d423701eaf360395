import { Router, type ErrorRequestHandler, type RequestHandler } from 'express';

type Handlers = RequestHandler[];
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The first segment of a path as Express compares it (case-insensitively): `/users/me` → `users`. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return (end < 0 ? path.slice(1) : path.slice(1, end)).toLowerCase();
}

/**
 * The API's routes, kept in one Express router per method and first path segment, with one
 * middleware that hands a request to its bucket. Express tries an application's routes one after
 * the other, matching each one's pattern against the path: with every route of the contract on the
 * application, a request to `GET /users/me` was matched against the two dozen routes registered
 * before it (a tenth of the request path's CPU in a profile). In its bucket it meets the few that
 * share its method and first segment, in the order they were registered, so which route answers
 * is unchanged; a path no bucket holds goes on to the application's next middleware, as before.
 *
 * `registrar` stands in for the application where the routes are registered (ts-rest's
 * createExpressEndpoints calls its get/post/put/patch/delete and then `use` for its error handler).
 */
export function routeBuckets() {
  const buckets = new Map<string, Router>();
  const mounted: { method: Method; path: string }[] = [];
  const after: (RequestHandler | ErrorRequestHandler)[] = [];
  const register = (method: Method, path: string, handlers: Handlers) => {
    const key = `${method} ${firstSegment(path)}`;
    let bucket = buckets.get(key);
    if (!bucket) buckets.set(key, (bucket = Router()));
    const route = bucket.route(path);
    if (method === 'GET') route.get(...handlers);
    else if (method === 'POST') route.post(...handlers);
    else if (method === 'PUT') route.put(...handlers);
    else if (method === 'PATCH') route.patch(...handlers);
    else route.delete(...handlers);
    mounted.push({ method, path });
  };
  const registrar = {
    get: (path: string, ...handlers: Handlers) => register('GET', path, handlers),
    post: (path: string, ...handlers: Handlers) => register('POST', path, handlers),
    put: (path: string, ...handlers: Handlers) => register('PUT', path, handlers),
    patch: (path: string, ...handlers: Handlers) => register('PATCH', path, handlers),
    delete: (path: string, ...handlers: Handlers) => register('DELETE', path, handlers),
    use: (...handlers: (RequestHandler | ErrorRequestHandler)[]) => void after.push(...handlers),
  };
  const dispatch: RequestHandler = (req, res, next) => {
    // A GET route answers HEAD too, as on the application.
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const bucket = buckets.get(`${method} ${firstSegment(req.path)}`);
    if (bucket) bucket(req, res, next);
    else next();
  };
  // Like an Express router, the dispatcher shows its routes' layers as `stack`: what walks the
  // application's routers to list what it mounts (the route × role test) finds them here.
  Object.defineProperty(dispatch, 'stack', { get: () => [...buckets.values()].flatMap((b) => b.stack) });
  return {
    registrar,
    /** Hands each request to its bucket: where the routes stood on the application. */
    dispatch,
    /** What the registrar was given to `use` after the routes (ts-rest's error handler). */
    after,
    /** Every route registered, in order: what the server really mounts. */
    mounted: () => [...mounted],
  };
}
