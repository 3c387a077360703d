/** The face of retention: the job that removes old data (docs/operators/retention.md). */
export { defaultRetentionSettings, RetentionJob } from './retention-job.js';
export type { RetentionReport, RetentionSettings } from './retention-job.js';
