import { initContract } from '@ts-rest/core';
import { accountContract } from './account';
import { apiKeysContract } from './api-keys';
import { authContract } from './auth';
import { claimsContract } from './claims';
import { dashboardContract } from './dashboard';
import { deliveriesContract } from './deliveries';
import { emailsContract } from './emails';
import { eventLogContract } from './event-log';
import { healthContract } from './health';
import { membersContract } from './members';
import { networksContract } from './networks';
import { ordersContract } from './orders';
import { payContract } from './pay';
import { profileContract } from './profile';
import { payoutsContract } from './payouts';
import { refundsContract } from './refunds';
import { sandboxContract } from './sandbox';
import { subscriptionsContract } from './subscriptions';
import { twoFactorContract } from './two-factor';
import { walletsContract } from './wallets';
import { x402Contract } from './x402';

const c = initContract();

/**
 * The routers by name, each by its own exported name: the contract's type is spelled with it because
 * the SDK's declaration build cannot write the whole inferred type out inline (TS7056).
 */
type Routers = {
  auth: typeof authContract;
  twoFactor: typeof twoFactorContract;
  account: typeof accountContract;
  apiKeys: typeof apiKeysContract;
  members: typeof membersContract;
  dashboard: typeof dashboardContract;
  orders: typeof ordersContract;
  claims: typeof claimsContract;
  deliveries: typeof deliveriesContract;
  emails: typeof emailsContract;
  events: typeof eventLogContract;
  profile: typeof profileContract;
  wallets: typeof walletsContract;
  pay: typeof payContract;
  refunds: typeof refundsContract;
  payouts: typeof payoutsContract;
  subscriptions: typeof subscriptionsContract;
  health: typeof healthContract;
  networks: typeof networksContract;
  sandbox: typeof sandboxContract;
  x402: typeof x402Contract;
};

const routers: Routers = {
  auth: authContract,
  twoFactor: twoFactorContract,
  account: accountContract,
  apiKeys: apiKeysContract,
  members: membersContract,
  dashboard: dashboardContract,
  orders: ordersContract,
  claims: claimsContract,
  deliveries: deliveriesContract,
  emails: emailsContract,
  events: eventLogContract,
  profile: profileContract,
  wallets: walletsContract,
  pay: payContract,
  refunds: refundsContract,
  payouts: payoutsContract,
  subscriptions: subscriptionsContract,
  health: healthContract,
  networks: networksContract,
  sandbox: sandboxContract,
  x402: x402Contract,
};

/** The whole interface: the server implements it, openapi.json and the SDK are derived from it. */
export const contract: Routers = c.router(routers);
export type Contract = typeof contract;

export * from './common';
export * from './permissions';
export * from './shapes';
export * from './errors';
export * from './auth';
export * from './two-factor';
export * from './account';
export * from './api-keys';
export * from './members';
export * from './member-shapes';
export * from './dashboard';
export * from './orders';
export * from './deliveries';
export * from './emails';
export * from './locales';
export * from './events';
export * from './event-log';
export * from './api-versions';
export * from './profile';
export * from './wallets';
export * from './pay';
export * from './refunds';
export * from './payouts';
export * from './payout-batch';
export * from './health';
export * from './network-table';
export * from './networks';
export * from './proof-messages';
export * from './claims';
export * from './lifecycles';
export * from './subscriptions';
export * from './sandbox';
export * from './x402';
