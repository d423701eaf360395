import type { Config } from '../config';
import type { Deps } from '../deps';
import type { JobName } from '../lib/job-names';

/** A background job: a bounded batch that is safe to run on several instances at once. */
export type Job = {
  name: JobName;
  schedule(config: Config): string;
  /**
   * Independent parts run side by side, each on its own (one network's scan never waits for
   * another's): a run per lane, and a lane that is still running is not started again. None: one lane.
   */
  lanes?(deps: Deps): string[];
  /**
   * Push triggers besides the schedule (a chain's notifications, a new block), started with the
   * runner: `wake` asks for a run of a job's lane now (ignored for jobs this instance does not
   * run). Returns what stops them.
   */
  start?(deps: Deps, wake: (job: JobName, lane?: string) => void): () => void;
  /** Runs one batch (of `lane`, for a job with lanes); returns how many items it handled. */
  run(
    deps: Deps,
    ctx: {
      workerId: string;
      lane?: string;
      /** Aborted when the runner stops: a run that keeps going while there is work ends early. */
      signal?: AbortSignal;
      /** Asked for by hand (runNow): all the work there is, not only what push notice reported. */
      full?: boolean;
    },
  ): Promise<number>;
};

/** One lane per network: a network whose RPC hangs never holds up another's work. */
export const networkLanes = (deps: Deps): string[] => deps.chains.all().map((chain) => chain.network);

/**
 * A job whose run is one bounded batch (JOB_BATCH_SIZE items, leased by this worker) of one
 * network's work, each network a lane of its own (networkLanes).
 */
export function networkBatchJob(
  name: JobName,
  schedule: (config: Config) => string,
  runBatch: (deps: Deps, opts: { batchSize: number; owner: string; network?: string }) => Promise<number>,
): Job {
  return {
    name,
    schedule,
    lanes: networkLanes,
    run: (deps, { workerId, lane }) =>
      runBatch(deps, { batchSize: deps.config.JOB_BATCH_SIZE, owner: workerId, network: lane }),
  };
}
