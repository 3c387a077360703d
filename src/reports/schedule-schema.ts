import { Type, type Static } from 'typebox';
import { Id } from '../http/list-params.js';
import { ReportKindName } from './kinds/report-kinds.js';

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
export const ReportScheduleWrite = Type.Object({ name, ...fields }, { additionalProperties: false });
export type ReportScheduleWrite = Static<typeof ReportScheduleWrite>;

/** PATCH: only the fields present change. */
export const ReportSchedulePatch = Type.Partial(ReportScheduleWrite, { additionalProperties: false });
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

export const ScheduleParams = Type.Object({ reportScheduleID: Id });
