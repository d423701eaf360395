import * as account from './client/account';
import * as auth from './client/auth';
import { createRawClient, type ClientContext } from './client/core';
import * as events from './client/events';
import * as orders from './client/orders';
import * as payouts from './client/payouts';
import * as sandbox from './client/sandbox';
import * as subscriptions from './client/subscriptions';
import type { ClientOptions } from './client/types';

export * from './client/types';

/**
 * The client's namespaces, each built in its own file under ./client/ (its interface holds the
 * methods' docs): their types never name the ts-rest client they are built on, so the declaration
 * build stays small.
 */
export type StablepayClient = {
  /** The token sent on merchant routes (set by the options, setToken() or the first login()). */
  readonly token: string | undefined;
  setToken(next: string | undefined): void;
  auth: auth.AuthApi;
  twoFactor: auth.TwoFactorApi;
  apiKeys: auth.ApiKeysApi;
  members: auth.MembersApi;
  orders: orders.OrdersApi;
  account: account.AccountApi;
  profile: account.ProfileApi;
  events: events.EventsApi;
  unattributedPayments: orders.UnattributedPaymentsApi;
  subscriptions: subscriptions.SubscriptionsApi;
  payouts: payouts.PayoutsApi;
  x402: sandbox.X402Api;
  /**
   * Only on an instance started with `npm run sandbox` (every route is a NotFoundError elsewhere):
   * real transfers on its local chains, no real money.
   */
  sandbox: sandbox.SandboxApi;
  wallets: account.WalletsApi;
  networks: account.NetworksApi;
};

/**
 * The merchant API client: one method per merchant route of the contract; each returns the success
 * body and throws a typed StablepayError (ValidationError, AuthenticationError, ...) otherwise.
 */
export function createClient(options: ClientOptions): StablepayClient {
  if (options.token !== undefined && options.apiKey !== undefined)
    throw new TypeError('give either options.token or options.apiKey, not both');
  let token = options.token ?? options.apiKey;
  const ctx: ClientContext = {
    raw: createRawClient(options, () => token),
    keepToken(next) {
      token ??= next;
    },
  };
  return {
    get token(): string | undefined {
      return token;
    },
    setToken(next: string | undefined): void {
      token = next;
    },
    auth: auth.authApi(ctx),
    twoFactor: auth.twoFactorApi(ctx),
    apiKeys: auth.apiKeysApi(ctx),
    members: auth.membersApi(ctx),
    orders: orders.ordersApi(ctx),
    account: account.accountApi(ctx),
    profile: account.profileApi(ctx),
    events: events.eventsApi(ctx),
    unattributedPayments: orders.unattributedPaymentsApi(ctx),
    subscriptions: subscriptions.subscriptionsApi(ctx),
    payouts: payouts.payoutsApi(ctx),
    x402: sandbox.x402Api(ctx),
    sandbox: sandbox.sandboxApi(ctx),
    wallets: account.walletsApi(ctx),
    networks: account.networksApi(ctx),
  };
}
