import type { NextFunction, Request, Response } from 'express';
import type { Deps } from '../deps';
import { ApiError } from '../errors';
import type { SandboxChains } from './sandbox-chains';

/** The 404 any unknown route gets: a normal instance does not reveal that sandbox routes exist. */
const noSuchRoute = (req: Request) => ApiError.notFound(`Route ${req.method} ${req.baseUrl}${req.path}`);

/**
 * Mounted on /sandbox before authentication: on an instance that is not a sandbox every sandbox
 * route is the one 404, with or without credentials (a 401 would tell that the route exists).
 */
export function sandboxGuard(deps: Pick<Deps, 'sandbox'>) {
  return (req: Request, _res: Response, next: NextFunction) =>
    deps.sandbox ? next() : next(noSuchRoute(req));
}

/** The chains behind the routes; the guard has already answered 404 when there are none. */
export function sandboxChains(deps: Pick<Deps, 'sandbox'>): SandboxChains {
  if (!deps.sandbox) throw ApiError.notFound('Sandbox');
  return deps.sandbox;
}
