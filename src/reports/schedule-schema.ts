import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ReportKindName } from './kinds/report-kinds.js';
import { scheduleAnswerFields, scheduleFields, ScheduleName } from './schedule-fields.js';

export { frequencies, type Frequency } from './schedule-fields.js';

/** POST and PUT: every field but the lists, `weekday`, `monthDay` and `enabled` required. */
const exampleSchedule = {
  name: 'Fleet summary for the office',
  report: 'summary' as const,
  subscriberGroupIDs: [5],
  recipients: ['office@example.com'],
  frequency: 'weekly' as const,
  weekday: 1,
  time: '07:30',
};
export const ReportScheduleWrite = withExamples(Type.Object({ name: ScheduleName, report: ReportKindName, ...scheduleFields }, { additionalProperties: false }), exampleSchedule);
export type ReportScheduleWrite = Static<typeof ReportScheduleWrite>;

/** PATCH: only the fields present change. */
export const ReportSchedulePatch = withExamples(Type.Partial(ReportScheduleWrite, { additionalProperties: false }), { recipients: ['office@example.com', 'fleet@example.com'] });
export type ReportSchedulePatch = Static<typeof ReportSchedulePatch>;

export const ReportSchedule = Type.Object({ reportScheduleID: Type.Integer(), name: Type.String(), report: ReportKindName, ...scheduleAnswerFields });
export type ReportSchedule = Static<typeof ReportSchedule>;

const scheduleExample: ReportSchedule = {
  reportScheduleID: 6,
  subscriberIDs: [],
  monthDay: null,
  enabled: true,
  nextSendDate: '2026-03-09T07:30:00+03:00',
  ...exampleSchedule,
};
export const ReportScheduleWithExample = withExamples(ReportSchedule, scheduleExample);
export const ReportScheduleList = withExamples(Type.Array(ReportSchedule), [scheduleExample]);

export const ScheduleParams = Type.Object({ reportScheduleID: withExamples(Id, 6) });
