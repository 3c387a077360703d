/** The face of retention: the job that removes old data (README, "Retention"). */
export { defaultRetentionSettings, RetentionJob } from './retention-job.js';
export type { RetentionReport, RetentionSettings } from './retention-job.js';
