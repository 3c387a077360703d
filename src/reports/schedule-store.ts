import type { Db, Tx } from '../store/database.js';
import type { ReportSchedulesTable } from '../store/schema.js';

export type ScheduleRow = Omit<ReportSchedulesTable, 'id'> & { id: number };
export type ScheduleFields = Omit<ScheduleRow, 'id' | 'account_id' | 'created_at'>;

const COLUMNS = [
  'id', 'account_id', 'name', 'report', 'subscriber_ids', 'subscriber_group_ids', 'recipients', 'frequency', 'weekday', 'month_day',
  'time_of_day', 'enabled', 'next_run_ms', 'created_at', 'updated_at',
] as const;

/** The account's schedules, by id. */
export function listSchedules(executor: Db, accountId: number): Promise<ScheduleRow[]> {
  return executor.selectFrom('report_schedules').select(COLUMNS).where('account_id', '=', accountId).orderBy('id').execute();
}

/** One schedule of the account (another account's is none). */
export function findSchedule(executor: Db, accountId: number, id: number): Promise<ScheduleRow | undefined> {
  return executor.selectFrom('report_schedules').select(COLUMNS).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
}

export async function insertSchedule(tx: Tx, accountId: number, fields: ScheduleFields, nowMs: number): Promise<number> {
  const row = await tx
    .insertInto('report_schedules')
    .values({ ...fields, account_id: accountId, created_at: nowMs })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Rewrites a schedule; false when the account has no such schedule. */
export async function updateSchedule(tx: Tx, accountId: number, id: number, fields: ScheduleFields): Promise<boolean> {
  const result = await tx.updateTable('report_schedules').set(fields).where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a schedule and its claims; false when the account has no such schedule. */
export async function deleteSchedule(tx: Tx, accountId: number, id: number): Promise<boolean> {
  await tx.deleteFrom('report_runs').where('account_id', '=', accountId).where('schedule_id', '=', id).execute();
  const result = await tx.deleteFrom('report_schedules').where('account_id', '=', accountId).where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Enabled schedules due at `nowMs`, every account's (the scheduler's scan, as the delivery worker's): the longest overdue first. */
export function dueSchedules(executor: Db, nowMs: number, limit: number): Promise<ScheduleRow[]> {
  return executor
    .selectFrom('report_schedules')
    .select(COLUMNS)
    .where('enabled', '=', 1)
    .where('next_run_ms', '<=', nowMs)
    .orderBy('next_run_ms')
    .limit(limit)
    .execute();
}

/**
 * Claims one due occurrence (a schedule and the period it reports on): true for the one
 * transaction that inserts it; a second server, or a restart doing it again, finds the unique key
 * taken and gets false.
 */
export async function claimRun(tx: Tx, accountId: number, scheduleId: number, period: { fromMs: number; toMs: number }, nowMs: number): Promise<boolean> {
  const inserted = await tx
    .insertInto('report_runs')
    .values({ account_id: accountId, schedule_id: scheduleId, period_from_ms: period.fromMs, period_to_ms: period.toMs, created_at: nowMs })
    .onConflict((oc) => oc.columns(['schedule_id', 'period_from_ms']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Moves a schedule on from the occurrence it was due at; a no-op when another server moved it already. */
export async function advanceSchedule(tx: Tx, accountId: number, id: number, dueMs: number, nextMs: number): Promise<void> {
  await tx
    .updateTable('report_schedules')
    .set({ next_run_ms: nextMs })
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .where('next_run_ms', '=', dueMs)
    .execute();
}

/**
 * Removes up to `limit` of the account's claims made before `beforeMs` (retention's hourly sweep);
 * the number removed. A claim only guards its occurrence until the schedule has moved past it,
 * which it does in the claim's own transaction; a schedule is never moved back (a change sets its
 * next send from now on), so an old claim guards nothing.
 */
export async function deleteRunsBefore(executor: Db, accountId: number, beforeMs: number, limit: number): Promise<number> {
  const result = await executor
    .deleteFrom('report_runs')
    .where('account_id', '=', accountId)
    .where('created_at', '<', beforeMs)
    .where('id', 'in', (eb) => eb.selectFrom('report_runs').select('id').where('account_id', '=', accountId).where('created_at', '<', beforeMs).limit(limit))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
