import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError, missingField } from '../http/errors.js';
import type { Database } from '../store/database.js';
import { nextOccurrence } from './schedule-clock.js';
import type { ReportSchedule, ReportSchedulePatch, ReportScheduleWrite } from './schedule-schema.js';
import { deleteSchedule, findSchedule, insertSchedule, listSchedules, updateSchedule, type ScheduleFields, type ScheduleRow } from './schedule-store.js';

/** A schedule's next send when it is disabled: never (the scheduler looks only at enabled ones). */
const NEVER_MS = Number.MAX_SAFE_INTEGER;

/** Report schedules (issue 17): what is e-mailed, to whom and when; the scheduler sends them. */
export class ScheduleService {
  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account): Promise<ReportSchedule[]> {
    return (await listSchedules(this.database.db, account.id)).map((row) => toSchedule(row, account.timeZone));
  }

  async get(account: Account, id: number): Promise<ReportSchedule> {
    return toSchedule(await this.row(account, id), account.timeZone);
  }

  async create(account: Account, input: ReportScheduleWrite): Promise<ReportSchedule> {
    const fields = this.fields(account, input);
    const id = await this.database.transaction((tx) => insertSchedule(tx, account.id, fields, this.clock()));
    return this.get(account, id);
  }

  async replace(account: Account, id: number, input: ReportScheduleWrite): Promise<void> {
    const fields = this.fields(account, input);
    if (!(await this.database.transaction((tx) => updateSchedule(tx, account.id, id, fields)))) throw notFound(id);
  }

  async patch(account: Account, id: number, input: ReportSchedulePatch): Promise<void> {
    const before = toWrite(await this.row(account, id));
    const fields = this.fields(account, { ...before, ...stripUndefined(input) });
    if (!(await this.database.transaction((tx) => updateSchedule(tx, account.id, id, fields)))) throw notFound(id);
  }

  async delete(account: Account, id: number): Promise<void> {
    if (!(await this.database.transaction((tx) => deleteSchedule(tx, account.id, id)))) throw notFound(id);
  }

  private async row(account: Account, id: number): Promise<ScheduleRow> {
    const row = await findSchedule(this.database.db, account.id, id);
    if (!row) throw notFound(id);
    return row;
  }

  /** The stored fields of a schedule written now: its next send counted from now. */
  private fields(account: Account, input: ReportScheduleWrite): ScheduleFields {
    if (input.frequency === 'weekly' && (input.weekday === undefined || input.weekday === null)) throw missingField('weekday');
    if (input.frequency === 'monthly' && (input.monthDay === undefined || input.monthDay === null)) throw missingField('monthDay');
    const timing = {
      frequency: input.frequency,
      weekday: input.frequency === 'weekly' ? input.weekday! : null,
      monthDay: input.frequency === 'monthly' ? input.monthDay! : null,
      time: input.time,
    };
    const enabled = input.enabled ?? true;
    return {
      name: input.name,
      report: input.report,
      subscriber_ids: JSON.stringify([...new Set(input.subscriberIDs ?? [])]),
      subscriber_group_ids: JSON.stringify([...new Set(input.subscriberGroupIDs ?? [])]),
      recipients: JSON.stringify(input.recipients),
      frequency: timing.frequency,
      weekday: timing.weekday,
      month_day: timing.monthDay,
      time_of_day: timing.time,
      enabled: enabled ? 1 : 0,
      next_run_ms: enabled ? nextOccurrence(timing, account.timeZone, this.clock()) : NEVER_MS,
      updated_at: this.clock(),
    };
  }
}

function notFound(id: number): ApiError {
  return new ApiError('REPORT_SCHEDULE_NOT_FOUND', `no report schedule ${id}`);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function toWrite(row: ScheduleRow): ReportScheduleWrite {
  return {
    name: row.name,
    report: row.report as ReportScheduleWrite['report'],
    subscriberIDs: JSON.parse(row.subscriber_ids) as number[],
    subscriberGroupIDs: JSON.parse(row.subscriber_group_ids) as number[],
    recipients: JSON.parse(row.recipients) as string[],
    frequency: row.frequency as ReportScheduleWrite['frequency'],
    ...(row.weekday === null ? {} : { weekday: row.weekday }),
    ...(row.month_day === null ? {} : { monthDay: row.month_day }),
    time: row.time_of_day,
    enabled: row.enabled === 1,
  };
}

export function toSchedule(row: ScheduleRow, timeZone: string): ReportSchedule {
  const write = toWrite(row);
  return {
    reportScheduleID: row.id,
    name: write.name,
    report: write.report,
    subscriberIDs: write.subscriberIDs ?? [],
    subscriberGroupIDs: write.subscriberGroupIDs ?? [],
    recipients: write.recipients,
    frequency: write.frequency,
    weekday: row.weekday,
    monthDay: row.month_day,
    time: write.time,
    enabled: row.enabled === 1,
    nextSendDate: row.enabled === 1 ? formatDateTime(row.next_run_ms, timeZone) : null,
  };
}
