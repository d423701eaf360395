import path from 'node:path';
import { ROOT } from '../lib/paths';

export const HAPROXY_CFG = path.join(ROOT, 'deploy', 'haproxy.cfg');
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The workload: fixed, so every run does the same work. */
export const SIZES = {
  /** Orders paid on chain: half carry the reference, half only the (unique) amount; half reported. */
  paid: 60,
  /** Orders whose expires_at is moved into the past, for the expiry job. */
  expiring: 10,
  /** Payers at work at once (each: create, open the checkout page, pay, watch it until PAID). */
  concurrency: 6,
} as const;
/** The payer scans the QR code and confirms in the wallet; the checkout page polls meanwhile. */
export const PAYER_DELAY_MS = 1_500;
/** The checkout page's status poll (GET /pay/{reference}/info), until PAID or the limit. */
export const POLL_MS = 300;
export const POLL_LIMIT_MS = 8_000;
/** Shared among the orders, so concurrent creations on different instances must keep them unique. */
export const AMOUNTS = ['10.00', '12.50', '15.00', '20.00', '25.00'];
export const INSTANCES = 3;
/** The instance killed with SIGKILL (1-based), at this share of the workload; started again after a while. */
export const KILLED = 3;
export const KILL_AT = 0.5;
export const RESTART_AFTER_MS = 3_000;

/** The client: attempts per call (the first included), backoff doubling from this, time per attempt. */
export const CLIENT_ATTEMPTS = 4;
export const CLIENT_BACKOFF_MS = 250;
export const REQUEST_TIMEOUT_MS = 20_000;

/** Bounds: start-up of each process, convergence after the workload, late duplicates, the whole run. */
export const START_TIMEOUT_MS = 60_000;
export const CONVERGE_TIMEOUT_MS = 90_000;
export const SETTLE_MS = 3_000;
export const RUN_TIMEOUT_MS = 6 * 60_000;
export const CLEANUP_STEP_TIMEOUT_MS = 20_000;

export const EMAIL = 'scale-check@stablepay.local';
export const PASSWORD = 'scale-check-password-123';
/** Never contacted (no EVM orders, static rates, no messenger): a closed local port all the same. */
export const CLOSED = 'http://127.0.0.1:9';
