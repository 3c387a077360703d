import { Type, type Static, type TObject } from 'typebox';
import { Id } from '../http/list-params.js';

/*
 * The fields of a report schedule that do not depend on the list of reports: schedule-schema.ts
 * completes them with the `report` of the list (kinds/report-kinds.ts); the workspace types its
 * schedules by them and takes the reports from its generated module.
 */

export const frequencies = ['daily', 'weekly', 'monthly'] as const;
export type Frequency = (typeof frequencies)[number];

const frequency = Type.Union([Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')], {
  description: 'daily: the day before; weekly (on `weekday`): the seven days before; monthly (on `monthDay`): the month before',
});

/** Every field of a schedule as written but its name and report. */
export const scheduleFields = {
  subscriberIDs: Type.Optional(Type.Array(Id, { maxItems: 1000, description: 'employees; with subscriberGroupIDs either counts; both empty: all' })),
  subscriberGroupIDs: Type.Optional(Type.Array(Id, { maxItems: 1000 })),
  recipients: Type.Array(Type.String({ format: 'email', maxLength: 254 }), { minItems: 1, maxItems: 50, description: 'e-mail addresses' }),
  frequency,
  weekday: Type.Optional(
    Type.Union([Type.Integer({ minimum: 1, maximum: 7 }), Type.Null()], { description: 'ISO weekday, 1 Monday … 7 Sunday; required when weekly, else ignored' }),
  ),
  monthDay: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 28 }), Type.Null()], { description: 'day of the month; required when monthly, else ignored' })),
  time: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:mm in the account’s time zone' }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
};
export const ScheduleName = Type.String({ minLength: 1, maxLength: 200 });

/** Every field of a schedule as answered after its report. */
export const scheduleAnswerFields = {
  subscriberIDs: Type.Array(Type.Integer()),
  subscriberGroupIDs: Type.Array(Type.Integer()),
  recipients: Type.Array(Type.String()),
  frequency,
  weekday: Type.Union([Type.Integer(), Type.Null()]),
  monthDay: Type.Union([Type.Integer(), Type.Null()]),
  time: Type.String(),
  enabled: Type.Boolean(),
  nextSendDate: Type.Union([Type.String(), Type.Null()], { description: 'when it is next sent (account’s zone); null while disabled' }),
};

/** A schedule as written, but its report. */
export type ReportScheduleFields = Static<TObject<{ name: typeof ScheduleName } & typeof scheduleFields>>;
/** A schedule as answered, but its report. */
export type ReportScheduleAnswerFields = { reportScheduleID: number; name: string } & Static<TObject<typeof scheduleAnswerFields>>;
