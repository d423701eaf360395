import type { Config } from '../config';
import type { Deps } from '../deps';
import type { JobName } from '../lib/job-names';

/** A background job: a bounded batch that is safe to run on several instances at once. */
export type Job = {
  name: JobName;
  schedule(config: Config): string;
  /** Runs one batch; returns how many items it handled. */
  run(deps: Deps, ctx: { workerId: string }): Promise<number>;
};
