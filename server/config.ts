import { z } from 'zod';
import { SOLANA_TOKEN_TABLE } from '../contract/network-table';
import {
  checkNetworkSettings,
  evmNetworkSettings,
  networkEnvShape,
  solanaRpcMaxRps,
  solanaTokens,
  tronSettings,
  type NetworkEnv,
} from './config-networks';
import {
  commaList,
  commaSplit,
  cron,
  currencyList,
  positiveInt,
  staticRates,
  url,
  urlList,
} from './config-values';
import { x402EnvShape, x402Settings } from './config-x402';
import { decodeEncryptionKey } from './lib/encryption-key';
import { JOB_NAMES, type JobName } from './lib/job-names';

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** At most 1,024 characters: the links built on it must stay within the API's 2,048 (URL_MAX). */
    PUBLIC_BASE_URL: url.max(1024).optional(),
    /** Trust X-Forwarded-For from this many proxies (rate limits key on the client IP). */
    TRUST_PROXY: z.coerce.number().int().min(0).default(0),

    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    DATA_DIR: z.string().default('./data'),
    /** Unset: a free port chosen once for DATA_DIR and kept there (DATA_DIR/postgres.port). */
    EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    DB_POOL_MAX: positiveInt.default(10),
    // Bounded waits on the database (docs/operations.md "When the database misbehaves"): a
    // connection that does not open, a pool with no free connection, a statement without an answer.
    // A request waits at most for a connection, then for one statement (and the client's 0.5 s
    // beyond it): 1 + 3 + 0.5 s by default, within the 5 s every answer is promised in.
    DB_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2000),
    DB_ACQUIRE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(1000),
    DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(3000),
    // A client that sends its request too slowly (headers, then the whole request) is answered 408.
    HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
    HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    READY_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(1000),

    /**
     * Signs login tokens. Required in production; elsewhere, unset, one is generated on the first
     * start and kept in DATA_DIR/secrets.json (server/lib/stored-secrets.ts). No default in code.
     */
    JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    JWT_TTL: z
      .string()
      .regex(/^\d+[smhd]$/, 'a number followed by s, m, h or d (e.g. 7d)')
      .default('7d'),
    /** A dashboard session unused this long ends (sign in again). */
    /** How long an invitation link to join an account works (issue 38): 7 days by default. */
    INVITATION_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .max(90 * 86_400)
      .default(604_800),
    DASHBOARD_SESSION_IDLE_HOURS: z.coerce
      .number()
      .min(0.01)
      .max(24 * 30)
      .default(12),
    /** A dashboard session ends this long after sign-in however much it is used (a stolen cookie expires). */
    DASHBOARD_SESSION_MAX_HOURS: z.coerce
      .number()
      .min(0.01)
      .max(24 * 30)
      .default(12),
    /**
     * Key for secrets stored at rest (bot tokens, webhook secrets): 32 bytes, base64 or hex.
     * Required in production; elsewhere generated and kept like JWT_SECRET.
     */
    DATA_ENCRYPTION_KEY: z.string().optional(),

    LOGIN_RATE_LIMIT_MAX: positiveInt.default(10),
    LOGIN_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(900),
    /** Authenticated API calls per merchant and second, counted across instances (Stripe's live limit). */
    API_RATE_LIMIT_PER_SECOND: positiveInt.default(100),
    /** Requests to public routes per client address and minute, counted across instances. */
    PUBLIC_RATE_LIMIT_PER_MINUTE: positiveInt.optional(),
    /** The older name of PUBLIC_RATE_LIMIT_PER_MINUTE. */
    API_RATE_LIMIT_PER_MINUTE: positiveInt.optional(),

    ORDER_TTL_SECONDS: z.coerce.number().int().min(60).max(86400).default(900),
    LATE_PAYMENT_WINDOW_SECONDS: z.coerce.number().int().min(0).default(86400),

    SOLANA_RPC_URL: urlList.default('https://api.mainnet-beta.solana.com'),
    /**
     * Websocket endpoints for account notifications (the scanner then reads only accounts that
     * changed); `none` polls every watched account instead. Default: each RPC URL's, as web3.js
     * derives it (ws/wss, an explicit port plus one).
     */
    SOLANA_WS_URL: z
      .union([
        z.literal('none'),
        commaList(z.string().regex(/^wss?:\/\/\S+$/, 'each entry must be a ws:// or wss:// URL')),
      ])
      .optional(),
    SOLANA_COMMITMENT: z.enum(['confirmed', 'finalized']).default('finalized'),
    USDT_MINT_SOLANA: z.string().default(SOLANA_TOKEN_TABLE.USDT.contract),
    USDC_MINT_SOLANA: z.string().optional(),
    /**
     * The EVM networks' variables (config-networks.ts: `<NETWORK>_RPC_URL`, `<TOKEN>_CONTRACT_<NETWORK>`
     * ..., also `<TOKEN>_DECIMALS_SOLANA`), and TRON's (config-tron.ts).
     * Parsed like every other variable; typed only through `evmNetworks`, `solanaTokens`, `tron` below.
     */
    ...(networkEnvShape(urlList) as Record<never, never>),
    /** x402's variables (config-x402.ts), typed only through `x402` below. */
    ...(x402EnvShape() as Record<never, never>),
    /**
     * Watched receiving accounts a scan cycle reads besides those a notification named (Solana's
     * account subscriptions): the ones read longest ago, in turn, so a lost notification is found.
     */
    SCAN_BACKSTOP_TARGETS: z.coerce.number().int().min(1).max(1000).default(3),
    /**
     * How often the backstop reads, and how often a network without push notice (Solana with
     * SOLANA_WS_URL=none) is read in full; the scan job itself runs every second.
     */
    SCAN_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
    /** Most blocks one eth_getLogs call asks for: providers cap ranges (often 1,000 to 10,000). */
    EVM_LOG_RANGE: z.coerce.number().int().min(1).max(1_000_000).default(1000),
    RPC_TIMEOUT_MS: positiveInt.default(10_000),
    /** An RPC endpoint that failed is skipped for this long, then tried again. */
    RPC_RETRY_FAILED_AFTER_MS: positiveInt.default(30_000),
    /** A reported transaction still not on chain this long after the report is rejected. */
    PAYMENT_NOT_FOUND_TIMEOUT_SECONDS: positiveInt.default(600),
    /** Delay between two checks of a reported transaction that is not final yet. */
    PAYMENT_RECHECK_MS: positiveInt.default(1000),
    /** An order short by at most this many basis points of its amount is PAID (a profile may override it). */
    UNDERPAYMENT_TOLERANCE_BPS: z.coerce.number().int().min(0).max(1000).default(0),
    /** A refund without a verified transfer this long after it became sendable (or was created) FAILS. */
    REFUND_DEADLINE_SECONDS: positiveInt.default(86400),
    /** A payout item without a final transfer this long after its batch was approved is FAILED. */
    PAYOUT_DEADLINE_SECONDS: positiveInt.default(86400),
    /** Payer refund-address submissions per client address and window. */
    REFUND_ADDRESS_RATE_LIMIT_MAX: positiveInt.default(20),
    REFUND_ADDRESS_RATE_LIMIT_WINDOW_SECONDS: positiveInt.default(900),

    /** The feed that prices quotes: live by default; `static` (FX_STATIC_RATES) only when chosen. */
    FX_PROVIDER: z.enum(['coinbase', 'frankfurter', 'static']).default('coinbase'),
    /** Asked when FX_PROVIDER cannot answer (a second, independent live feed); `none` to fail instead. */
    FX_FALLBACK_PROVIDER: z.enum(['frankfurter', 'coinbase', 'none']).default('frankfurter'),
    FX_FRANKFURTER_URL: url.default('https://api.frankfurter.dev'),
    FX_STATIC_RATES: staticRates.default('BRL:5.25,EUR:0.92'),
    FX_COINBASE_URL: url.default('https://api.coinbase.com'),
    FX_CACHE_SECONDS: z.coerce.number().int().min(0).default(60),
    FX_TIMEOUT_MS: positiveInt.default(5000),
    /** Fiat currencies accepted as quoteCurrency. */
    QUOTE_CURRENCIES: currencyList.default('BRL,EUR'),

    MESSENGER_API_BASE_URL: url.default('https://api.telegram.org'),
    /**
     * The mail server customers' e-mails (receipts; a subscription's orders and reminders) go
     * through, e.g. `smtp://user:pass@host:587` (STARTTLS when offered) or `smtps://…:465`. Unset:
     * nothing is mailed or queued, and the webhook is the merchant's cue.
     */
    SMTP_URL: z
      .string()
      .url()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** The From of those e-mails, e.g. `Shop payments <pay@example.com>`; required with SMTP_URL. */
    MAIL_FROM: z.string().trim().min(3).max(320).optional(),
    /** Each wait on the mail server (connecting, its greeting, each answer), and one send as a whole. */
    SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** When set, GET /metrics requires `Authorization: Bearer <METRICS_TOKEN>`. */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),

    /**
     * Days an event is kept (GET /events), then deleted with its delivery records by the
     * prune-events job. At least 30: the events API promises a month.
     */
    EVENT_RETENTION_DAYS: z.coerce.number().int().min(30).max(36_500).default(30),
    /** Webhook attempts per event (the first included) before it is given up. */
    WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(12),
    /** Delay before retry n is base * 2^(n-1): 42 s gives 12 attempts over about 24 h. */
    WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).default(42_000),
    WEBHOOK_TIMEOUT_MS: positiveInt.default(10_000),
    /** A claimed delivery is retaken by another instance this long after its send deadline (crash recovery). */
    WEBHOOK_LEASE_GRACE_MS: positiveInt.default(30_000),
    /**
     * Sends in flight at once per destination (a channel and a merchant) and instance, and tasks of
     * a slow or dead receiver leased at once across all instances: it holds this many of the
     * senders' JOB_BATCH_SIZE, never the other merchants'.
     */
    WEBHOOK_CONCURRENCY_PER_DESTINATION: z.coerce.number().int().min(1).max(1000).default(8),
    /**
     * Allow webhook URLs on loopback and private addresses (the demo's and tests' local receivers).
     * Off unless set, whatever NODE_ENV says: a merchant must not reach the operator's network.
     * MESSENGER_API_BASE_URL is the operator's own and not subject to it.
     */
    WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
    /**
     * Set by `npm run sandbox` only (DESIGN "Sandbox"): local chains, and the /sandbox routes that
     * move money on them. Refused in production, where those routes must never exist.
     */
    SANDBOX: z.enum(['true', 'false']).default('false'),

    /**
     * What background work this instance runs: `all`, `none` (an API-only instance), or a comma
     * list of job names. JOBS_ENABLED=false is the older spelling of `none`.
     */
    JOBS: commaSplit
      .pipe(
        z.union([
          z.tuple([z.enum(['all', 'none'])]),
          z.array(z.enum(JOB_NAMES, { message: `each job must be one of ${JOB_NAMES.join(', ')}` })).min(1),
        ]),
      )
      .optional(),
    JOBS_ENABLED: z.enum(['true', 'false']).optional(),
    /**
     * Parse every response with its contract schema before it is sent. Always on in development and
     * tests (where a handler that drifts from the contract fails); in production it costs about a
     * fifth of a list page's CPU, and the presenters are typed by the same contract, so it is off
     * unless set to true.
     */
    RESPONSE_VALIDATION: z.enum(['true', 'false']).optional(),
    /**
     * Subscriptions: how long a day lasts on their clock (every duration of theirs scales with it:
     * periods, dueDays, trialDays, the grace below, the reminder). Shorter only in tests and the
     * sandbox: refused in production.
     */
    SUBSCRIPTION_DAY_SECONDS: z.coerce.number().int().min(1).max(86400).default(86400),
    /** Days past due after which a subscription is CANCELED. */
    SUBSCRIPTION_CANCEL_AFTER_DAYS: z.coerce.number().int().min(1).max(365).default(14),
    /** Hours before a period's order expires that its reminder is mailed (a day's 24th each). */
    SUBSCRIPTION_REMINDER_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /** Background jobs' schedules (node-cron, 6 fields with seconds). */
    JOB_DELIVER_EVENTS_CRON: cron.default('*/2 * * * * *'),
    JOB_EXPIRE_ORDERS_CRON: cron.default('*/10 * * * * *'),
    /** Subscriptions due are billed within a second (a moved order wakes the job at once too). */
    JOB_BILL_SUBSCRIPTIONS_CRON: cron.default('* * * * * *'),
    // Every second: a reported payment waiting for confirmations is checked again PAYMENT_RECHECK_MS
    // (1 s) later, and found within about a second of its confirming block.
    JOB_VERIFY_PAYMENTS_CRON: cron.default('* * * * * *'),
    JOB_VERIFY_REFUNDS_CRON: cron.default('*/5 * * * * *'),
    /** Reported payout transactions are read again, and payout deadlines passed, this often. */
    JOB_VERIFY_PAYOUTS_CRON: cron.default('*/5 * * * * *'),
    /** x402 settlements a crash or a late receipt left behind are looked for this often (server/x402/). */
    JOB_FOLLOW_UP_X402_CRON: cron.default('*/10 * * * * *'),
    JOB_SCAN_PAYMENTS_CRON: cron.default('* * * * * *'),
    /** Retention runs: each deletes up to 1,000 expired events (and wakes itself while there are more). */
    JOB_PRUNE_EVENTS_CRON: cron.default('0 * * * * *'),
    /** The dashboard's hourly figures follow orders and payments this closely (server/dashboard/refresh-stats.ts). */
    JOB_REFRESH_DASHBOARD_STATS_CRON: cron.default('*/2 * * * * *'),
    /** The e-mail sender's backstop; new e-mails wake it at once. */
    JOB_SEND_EMAILS_CRON: cron.default('*/5 * * * * *'),
    /** How long a worker holds a leased piece of work (scan cursor, claim) between renewals. */
    JOB_LEASE_SECONDS: positiveInt.default(60),
    JOB_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(50),
  })
  .superRefine((cfg, ctx) => {
    if (cfg.NODE_ENV === 'production') {
      if (!cfg.DATABASE_URL)
        ctx.addIssue({
          code: 'custom',
          path: ['DATABASE_URL'],
          message:
            'is required when NODE_ENV=production (the embedded PostgreSQL is for development and demos only)',
        });
      if (!cfg.JWT_SECRET)
        ctx.addIssue({
          code: 'custom',
          path: ['JWT_SECRET'],
          message: 'is required when NODE_ENV=production',
        });
      if (!cfg.DATA_ENCRYPTION_KEY)
        ctx.addIssue({
          code: 'custom',
          path: ['DATA_ENCRYPTION_KEY'],
          message: 'is required when NODE_ENV=production',
        });
      if (cfg.SUBSCRIPTION_DAY_SECONDS !== 86400)
        ctx.addIssue({
          code: 'custom',
          path: ['SUBSCRIPTION_DAY_SECONDS'],
          message: 'must be 86400 when NODE_ENV=production (shorter days are for tests and the sandbox)',
        });
      if (cfg.SANDBOX === 'true')
        ctx.addIssue({
          code: 'custom',
          path: ['SANDBOX'],
          message: 'must not be true when NODE_ENV=production (the sandbox moves money on local chains)',
        });
    }
    if (cfg.DATA_ENCRYPTION_KEY && decodeEncryptionKey(cfg.DATA_ENCRYPTION_KEY) === null)
      ctx.addIssue({
        code: 'custom',
        path: ['DATA_ENCRYPTION_KEY'],
        message: 'must be 32 bytes as base64 or 64 hex characters',
      });
    if (cfg.SMTP_URL && !cfg.MAIL_FROM)
      ctx.addIssue({ code: 'custom', path: ['MAIL_FROM'], message: 'is required when SMTP_URL is set' });
    checkNetworkSettings(cfg as unknown as NetworkEnv, ctx);
    if (cfg.FX_PROVIDER === 'static') {
      for (const currency of cfg.QUOTE_CURRENCIES)
        if (!cfg.FX_STATIC_RATES[currency])
          ctx.addIssue({
            code: 'custom',
            path: ['FX_STATIC_RATES'],
            message: `has no rate for ${currency} (listed in QUOTE_CURRENCIES)`,
          });
    }
  })
  .transform((cfg) => ({
    ...cfg,
    /** Unset: the one kept in DATA_DIR (main.ts's buildDeps); deps.secrets seals with the key in force. */
    encryptionKey: cfg.DATA_ENCRYPTION_KEY ? decodeEncryptionKey(cfg.DATA_ENCRYPTION_KEY)! : undefined,
    PUBLIC_BASE_URL: (cfg.PUBLIC_BASE_URL ?? `http://localhost:${cfg.PORT}`).replace(/\/+$/, ''),
    webhookAllowPrivate: cfg.WEBHOOK_ALLOW_PRIVATE === 'true',
    sandbox: cfg.SANDBOX === 'true',
    /** Where customers' e-mails go out, or null: none are mailed or queued. */
    mail: cfg.SMTP_URL && cfg.MAIL_FROM ? { url: cfg.SMTP_URL, from: cfg.MAIL_FROM } : null,
    jobs: jobSelection(cfg.JOBS, cfg.JOBS_ENABLED),
    responseValidation: cfg.RESPONSE_VALIDATION
      ? cfg.RESPONSE_VALIDATION === 'true'
      : cfg.NODE_ENV !== 'production',
    PUBLIC_RATE_LIMIT_PER_MINUTE: cfg.PUBLIC_RATE_LIMIT_PER_MINUTE ?? cfg.API_RATE_LIMIT_PER_MINUTE ?? 600,
    /** The EVM networks that are on, each with its tokens. */
    evmNetworks: evmNetworkSettings(cfg as unknown as NetworkEnv),
    solanaTokens: solanaTokens(cfg as unknown as NetworkEnv),
    tron: tronSettings(cfg as unknown as NetworkEnv),
    x402: x402Settings(cfg),
    solanaRpcMaxRps: solanaRpcMaxRps(cfg as unknown as NetworkEnv),
    solanaWsUrls:
      cfg.SOLANA_WS_URL === 'none' ? [] : (cfg.SOLANA_WS_URL ?? cfg.SOLANA_RPC_URL.map(websocketUrlOf)),
  }));

/** The PubSub endpoint web3.js would use for an RPC URL: ws(s), an explicit port plus one. */
export function websocketUrlOf(rpcUrl: string): string {
  const url = new URL(rpcUrl);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (url.port !== '') url.port = String(Number(url.port) + 1);
  return url.toString().replace(/\/$/, rpcUrl.endsWith('/') ? '/' : '');
}

export type Config = z.infer<typeof configSchema>;

/** The jobs an instance runs, from JOBS (or the older JOBS_ENABLED). */
function jobSelection(
  jobs: string[] | undefined,
  enabled: 'true' | 'false' | undefined,
): ReadonlySet<JobName> {
  if (!jobs) return new Set(enabled === 'false' ? [] : JOB_NAMES);
  if (jobs[0] === 'all') return new Set(JOB_NAMES);
  if (jobs[0] === 'none') return new Set();
  return new Set(jobs as JobName[]);
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = configSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(config)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return result.data;
}
