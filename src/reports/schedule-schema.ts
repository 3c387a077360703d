import { Type, type Static } from 'typebox';
import { Id } from '../http/list-params.js';
import { ReportKindName } from './kinds/report-kinds.js';
import { scheduleAnswerFields, scheduleFields, ScheduleName } from './schedule-fields.js';

export { frequencies, type Frequency } from './schedule-fields.js';

/** POST and PUT: every field but the lists, `weekday`, `monthDay` and `enabled` required. */
export const ReportScheduleWrite = Type.Object({ name: ScheduleName, report: ReportKindName, ...scheduleFields }, { additionalProperties: false });
export type ReportScheduleWrite = Static<typeof ReportScheduleWrite>;

/** PATCH: only the fields present change. */
export const ReportSchedulePatch = Type.Partial(ReportScheduleWrite, { additionalProperties: false });
export type ReportSchedulePatch = Static<typeof ReportSchedulePatch>;

export const ReportSchedule = Type.Object({ reportScheduleID: Type.Integer(), name: Type.String(), report: ReportKindName, ...scheduleAnswerFields });
export type ReportSchedule = Static<typeof ReportSchedule>;

export const ScheduleParams = Type.Object({ reportScheduleID: Id });
