import { initServer } from '@ts-rest/express';
import { authContract } from '../../contract';
import type { Deps } from '../deps';
import { login } from './login';

export function authRouter(deps: Deps) {
  return initServer().router(authContract, {
    login: async ({ body }) => ({ status: 200, body: await login(deps, body) }),
  });
}
