/**
 * The folders of server/ by layer (docs/architecture.md): .dependency-cruiser.cjs builds its rules
 * from these lists, and test/unit/layering.test.ts fails when a folder of server/ is in none of them
 * (a new domain must be placed before it can be checked).
 */
module.exports = {
  /** Request and job plumbing put together: main.ts, app.ts, background-jobs.ts and these. */
  COMPOSITION: ['cli'],
  DOMAINS: [
    'auth',
    'api-keys',
    'members',
    'merchants',
    'profile',
    'wallets',
    'orders',
    'subscriptions',
    'payments',
    'refunds',
    'payouts',
    'pay',
    'checkout',
    'deliveries',
    'event-log',
    'dashboard',
    'health',
    'docs',
    'networks',
    'sandbox',
    'account',
    'x402',
  ],
  /** What domains use: they take plain data or a function, never a domain. */
  SERVICES: ['events', 'jobs', 'http', 'emails'],
  INFRASTRUCTURE: ['db', 'chains', 'fx'],
  BASE: ['lib'],
};
