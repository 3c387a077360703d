import { Type, type Static } from 'typebox';
import { withExamples } from '../http/examples.js';
import { Id } from '../http/list-params.js';
import { ReportKindName } from './report-schema.js';

export const frequencies = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof frequencies)[number];

const fields = {
  report: ReportKindName,
  subscriberIDs: Type.Optional(Type.Array(Id, { maxItems: 1000, description: 'employees; with subscriberGroupIDs either counts; both empty: all' })),
  subscriberGroupIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  recipients: Type.Array(Type.String({ format: 'email', maxLength: 254 }), { minItems: 1, maxItems: 50, description: 'e-mail addresses' }),
  frequency: Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')], {
    description: 'daily: the day before; weekly (on `weekday`): the seven days before; monthly (on `monthDay`): the month before',
  }),
  weekday: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 7 }), Type.Null()], { description: 'ISO weekday, 1 Monday … 7 Sunday; required when weekly, else ignored' }),
  ),
  monthDay: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 28 }), Type.Null()], { description: 'day of the month; required when monthly, else ignored' })),
  time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:mm in the account’s time zone' }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
};
const name = Type.String({ minLength: 1, maxLength: 200 });

/** POST and PUT: every field but the lists, `weekday`, `monthDay` and `enabled` required. */
const scheduleFields = {
  name: 'Fleet summary for the office',
  report: 'summary' as const,
  subscriberGroupIDs: [5],
  recipients: ['office@example.com'],
  frequency: 'weekly' as const,
  weekday: 1,
  time: '07:30',
};
export const ReportScheduleWrite = withExamples(Type.Object({ name, ...fields }, { additionalProperties: false }), scheduleFields);
export type ReportScheduleWrite = Static<typeof ReportScheduleWrite>;

/** PATCH: only the fields present change. */
export const ReportSchedulePatch = withExamples(Type.Partial(ReportScheduleWrite, { additionalProperties: false }), { recipients: ['office@example.com', 'fleet@example.com'] });
export type ReportSchedulePatch = Static<typeof ReportSchedulePatch>;

export const ReportSchedule = Type.Object({
  reportScheduleID: Type.Integer(),
  name: Type.String(),
  report: ReportKindName,
  subscriberIDs: Type.Array(Type.Integer()),
  subscriberGroupIDs: Type.Array(Type.Integer()),
  recipients: Type.Array(Type.String()),
  frequency: fields.frequency,
  weekday: Type.Union([Type.Integer(), Type.Null()]),
  monthDay: Type.Union([Type.Integer(), Type.Null()]),
  time: Type.String(),
  enabled: Type.Boolean(),
  nextSendDate: Type.Union([Type.String(), Type.Null()], { description: 'when it is next sent (account’s zone); null while disabled' }),
});
export type ReportSchedule = Static<typeof ReportSchedule>;

const scheduleExample: ReportSchedule = {
  reportScheduleID: 6,
  subscriberIDs: [],
  monthDay: null,
  enabled: true,
  nextSendDate: '2026-03-09T07:30:00+03:00',
  ...scheduleFields,
};
export const ReportScheduleWithExample = withExamples(ReportSchedule, scheduleExample);
export const ReportScheduleList = withExamples(Type.Array(ReportSchedule), [scheduleExample]);

export const ScheduleParams = Type.Object({ reportScheduleID: withExamples(Id, 6) });
