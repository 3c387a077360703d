/** The face of retention: the job that removes old data (docs/operators/retention.md). */
import { RetentionJob, type RetentionJobOptions } from './retention-job.js';

export type RetentionDependencies = RetentionJobOptions;

/** Started and stopped by main.ts; the partitions ahead are made before the first fix is taken. */
export type Retention = Pick<RetentionJob, 'start' | 'stop' | 'runOnce' | 'makePartitionsAhead'>;

export function createRetention(deps: RetentionDependencies): Retention {
  return new RetentionJob(deps);
}

export { defaultRetentionSettings } from './retention-job.js';
export type { RetentionReport, RetentionSettings } from './retention-job.js';
