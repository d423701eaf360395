import { parseArgs } from 'node:util';
import { errorMessage } from './lib/cleanup';

/** The parts `--only` picks from; a group names several. */
export const PARTS = [
  'orders',
  'listing',
  'qr',
  'payments',
  'scan',
  'webhooks',
  'evm-payments',
  'evm-scan',
  'tron-scan',
  'wakeups',
  'detection',
  'request-path',
  'dashboard',
  'subscriptions',
  'sandbox',
  'x402',
  'payouts',
] as const;
export type Part = (typeof PARTS)[number];
const PART_GROUPS: Record<string, Part[]> = {
  solana: ['payments', 'scan'],
  evm: ['evm-payments', 'evm-scan', 'x402'],
};

/** The request-path part's run length; the environment variables are the older way to set them. */
export type RequestPathOptions = {
  seconds: number;
  rounds: number;
  depthRows: number;
  dashboardOrders: number;
};

/** The detection part's run length: the idle window per case (scaled to a minute) and payments per case. */
export type DetectionOptions = { idleSeconds: number; samples: number };

export type Options = { parts: Set<Part>; requestPath: RequestPathOptions; detection: DetectionOptions };

const USAGE = `npm run bench [-- options]
  --only <parts>       a comma list of parts (default: every part):
                         ${PARTS.join(', ')},
                         or the groups ${Object.keys(PART_GROUPS).join(', ')}
  --seconds <s>        request-path: seconds of load per measurement (BENCH_SECONDS, default 5)
  --rounds <n>         request-path: rounds of each route against its baseline (BENCH_ROUNDS, default 3)
  --depth-rows <n>     request-path: orders of one merchant for the pages at depth, at least 100
                       (BENCH_DEPTH_ROWS, default 100000)
  --dashboard-orders <n>  dashboard: orders of one merchant for the summary and the export (default 1000000)
  --idle-seconds <s>   detection: seconds each idle case is counted for, scaled to a minute; at least
                       10, the backstop's period (default 60)
  --samples <n>        detection: payments per network and way of paying (default 20)
  --help               this text`;

/** The options given, or the exit code once the usage was printed (--help) or an error said why not. */
export function parseOptions(args: string[]): Options | { exitCode: number } {
  try {
    const { values } = parseArgs({
      args,
      options: {
        only: { type: 'string' },
        seconds: { type: 'string' },
        rounds: { type: 'string' },
        'depth-rows': { type: 'string' },
        'dashboard-orders': { type: 'string' },
        'idle-seconds': { type: 'string' },
        samples: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
    if (values.help) {
      console.log(USAGE);
      return { exitCode: 0 };
    }
    const requestPath = {
      seconds: wholeAtLeast('--seconds', values.seconds ?? process.env.BENCH_SECONDS ?? '5', 1),
      rounds: wholeAtLeast('--rounds', values.rounds ?? process.env.BENCH_ROUNDS ?? '3', 1),
      depthRows: wholeAtLeast(
        '--depth-rows',
        values['depth-rows'] ?? process.env.BENCH_DEPTH_ROWS ?? '100000',
        100,
      ),
      dashboardOrders: wholeAtLeast('--dashboard-orders', values['dashboard-orders'] ?? '1000000', 1000),
    };
    const detection = {
      idleSeconds: wholeAtLeast('--idle-seconds', values['idle-seconds'] ?? '60', 10),
      samples: wholeAtLeast('--samples', values.samples ?? '20', 2),
    };
    return { parts: selectedParts(values.only), requestPath, detection };
  } catch (error) {
    console.error(errorMessage(error));
    return { exitCode: 2 };
  }
}

/** A whole number of at least `min` (autocannon averages req/s over whole seconds). */
function wholeAtLeast(option: string, text: string, min: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isInteger(value) || value < min)
    throw new Error(`${option}: a whole number of at least ${min}, not "${text}"`);
  return value;
}

/** The parts `--only` names (every part without it). */
function selectedParts(only: string | undefined): Set<Part> {
  if (only === undefined) return new Set(PARTS);
  const parts = new Set<Part>();
  for (const name of only.split(',').map((p) => p.trim().toLowerCase())) {
    const group = Object.hasOwn(PART_GROUPS, name)
      ? PART_GROUPS[name]
      : PARTS.includes(name as Part)
        ? [name as Part]
        : undefined;
    if (!group)
      throw new Error(
        `Unknown part "${name}" in --only: one of ${[...PARTS, ...Object.keys(PART_GROUPS)].join(', ')}`,
      );
    group.forEach((part) => parts.add(part));
  }
  return parts;
}
