/**
 * The layering of server/ (docs/architecture.md), checked by `npm run lint`:
 *
 *   composition (main.ts, app.ts, background-jobs.ts, cli/)
 *     -> domains (auth, api-keys, merchants, profile, wallets, orders, payments, refunds, pay, checkout,
 *                 deliveries, event-log, health, docs), which use each other one way only
 *     -> events, jobs, http, emails
 *     -> db, chains, fx
 *     -> lib, config.ts, errors.ts, contract/
 *
 * deps.ts is the services' parameter type: every layer may name it; it only imports types.
 */
const LAYERS = require('./.layers.cjs');

const DOMAINS = LAYERS.DOMAINS.join('|');
const COMPOSITION = '^server/(main|app|background-jobs)[.]ts$|^server/cli/';
const under = (folders) => `^server/(${folders})/`;

/** Domains that a domain must not import: the one way between domains. */
const DOMAIN_ORDER = [
  // [domain, the domains it must not import]
  [
    'orders',
    'payments|refunds|payouts|pay|checkout|deliveries|profile|wallets|health|docs|merchants|subscriptions|x402',
  ],
  ['payments', 'refunds|payouts|pay|checkout|deliveries|profile|wallets|health|docs|merchants|x402'],
  // x402 (issue 39): records its settlements through orders; the @x402 packages stay inside it.
  [
    'x402',
    'payments|refunds|payouts|pay|checkout|deliveries|profile|wallets|health|docs|merchants|subscriptions',
  ],
  ['refunds', 'payouts|pay|checkout|deliveries|profile|wallets|health|docs|merchants'],
  ['payouts', 'pay|checkout|deliveries|profile|wallets|health|docs|merchants|subscriptions|x402'],
  ['pay', 'checkout|deliveries|profile|wallets|health|docs|merchants'],
  ['checkout', 'pay|deliveries|profile|wallets|health|docs|merchants'],
  ['deliveries', 'payments|refunds|pay|checkout|profile|wallets|health|docs|merchants'],
  ['wallets', 'payments|refunds|pay|checkout|deliveries|profile|health|docs|merchants'],
  [
    'event-log',
    'api-keys|merchants|profile|wallets|orders|payments|refunds|pay|checkout|deliveries|health|docs',
  ],
  [
    'auth',
    'account|api-keys|members|merchants|profile|wallets|orders|payments|refunds|pay|checkout|deliveries|event-log|health|docs',
  ],
  [
    'api-keys',
    'merchants|profile|wallets|orders|payments|refunds|pay|checkout|deliveries|event-log|health|docs',
  ],
  // members (issue 38): accounts' people; its events go where the account's go (orders' delivery targets).
  [
    'members',
    'api-keys|merchants|profile|wallets|payments|refunds|pay|checkout|deliveries|event-log|dashboard|health|docs|subscriptions|sandbox',
  ],
  [
    'networks',
    'auth|api-keys|merchants|profile|wallets|orders|payments|refunds|pay|checkout|deliveries|event-log|dashboard|health|docs',
  ],
];

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Imports run one way: no module reaches itself again (type-only imports aside).',
      from: { path: '^(server|contract|sandbox)/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'contract-stands-alone',
      severity: 'error',
      comment: 'The contract is shared by the server, the SDK and the dashboard: it imports none of them.',
      from: { path: '^contract/' },
      to: { path: '^(server|sdk|test|bench|scripts)/' },
    },
    {
      name: 'server-not-harness',
      severity: 'error',
      comment:
        'The product never imports its tests, bench or scripts, nor the sandbox: its chains (litesvm, Hardhat) reach the service only as deps.sandbox.',
      from: { path: '^server/' },
      to: { path: '^(test|bench|scripts|examples|sandbox)/' },
    },
    {
      name: 'sandbox-not-harness',
      severity: 'error',
      comment: 'The sandbox is product (npm run sandbox): it never imports tests, bench or scripts.',
      from: { path: '^sandbox/' },
      to: { path: '^(test|bench|scripts|examples)/' },
    },
    {
      name: 'nothing-imports-composition',
      severity: 'error',
      comment: 'main.ts, app.ts and background-jobs.ts put the layers together; no layer imports them.',
      from: { path: '^server/', pathNot: COMPOSITION },
      to: { path: COMPOSITION },
    },
    {
      name: 'lib-is-the-bottom',
      severity: 'error',
      comment: 'server/lib holds plain helpers: it imports nothing else of the server.',
      from: { path: '^server/lib/' },
      to: { path: '^server/', pathNot: '^server/lib/' },
    },
    {
      name: 'base-below-everything',
      severity: 'error',
      comment:
        'config.ts (with config-networks.ts, config-tron.ts, config-x402.ts and config-values.ts) and errors.ts sit just above lib.',
      from: { path: '^server/(config|config-networks|config-tron|config-x402|config-values|errors)[.]ts$' },
      to: {
        path: '^server/',
        pathNot:
          '^server/(lib/|config[.]ts$|config-networks[.]ts$|config-tron[.]ts$|config-x402[.]ts$|config-values[.]ts$|errors[.]ts$)',
      },
    },
    {
      name: 'infrastructure-below-events-and-jobs',
      severity: 'error',
      comment: 'db, chains and fx are infrastructure: no events, jobs, http, emails or domain in them.',
      from: { path: under('db|chains|fx') },
      to: { path: `${under(`events|jobs|http|emails|${DOMAINS}`)}|^server/deps[.]ts$` },
    },
    {
      name: 'events-and-jobs-take-plain-data',
      severity: 'error',
      comment: 'Domains use events, jobs and emails, never the reverse: they take plain data or a function.',
      from: { path: under('events|jobs|emails') },
      to: { path: under(`http|${DOMAINS}`) },
    },
    {
      name: 'events-below-emails',
      severity: 'error',
      comment: "E-mail to customers uses the events' retry schedule; events and jobs know no e-mail.",
      from: { path: under('events|jobs') },
      to: { path: under('emails') },
    },
    {
      name: 'jobs-below-events',
      severity: 'error',
      comment: 'The scheduler runs jobs it is given; it knows no event.',
      from: { path: under('jobs') },
      to: { path: under('events') },
    },
    {
      name: 'http-below-domains',
      severity: 'error',
      comment: 'server/http is the request plumbing every router shares: it imports no domain.',
      from: { path: under('http') },
      to: { path: under(DOMAINS) },
    },
    ...DOMAIN_ORDER.map(([domain, not]) => ({
      name: `one-way-from-${domain}`,
      severity: 'error',
      comment: `${domain} does not import ${not.split('|').join(', ')}.`,
      from: { path: `^server/${domain}/` },
      to: { path: under(not) },
    })),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '^server/checkout/client/' },
  },
};
