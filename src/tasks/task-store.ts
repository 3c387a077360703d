import type { Db, Tx } from '../store/database.js';
import type { Insertable } from 'kysely';
import type { TaskChangesTable, TasksTable } from '../store/schema.js';

/** The statements of tasks. Deleted tasks stay as rows; every read here leaves them out. */

const columns = ['id', 'subscriber_id', 'external_id', 'status', 'start_ms', 'deadline_ms', 'document', 'created_at'] as const;

export type TaskRow = Pick<TasksTable, 'subscriber_id' | 'external_id' | 'status' | 'start_ms' | 'deadline_ms' | 'document' | 'created_at'> & { id: number };
export type TaskColumns = Pick<TasksTable, 'subscriber_id' | 'external_id' | 'status' | 'start_ms' | 'deadline_ms' | 'document' | 'task_type_id'>;

export interface TaskFilter {
  /** A task is listed when its planned period overlaps [fromMs, toMs], or it was created or changed within it; null bounds are open. */
  fromMs: number | null;
  toMs: number | null;
  subscriberIds?: number[] | undefined;
  statuses?: number[] | undefined;
  taskTypeIds?: number[] | undefined;
  count: number;
  offset: number;
}

/** The account's living tasks, by start date, then id. */
export async function listTasks(db: Db, accountId: number, filter: TaskFilter): Promise<TaskRow[]> {
  let select = db.selectFrom('tasks').select(columns).where('account_id', '=', accountId).where('deleted_at', 'is', null);
  if (filter.fromMs !== null || filter.toMs !== null) {
    const from = filter.fromMs ?? Number.MIN_SAFE_INTEGER;
    const to = filter.toMs ?? Number.MAX_SAFE_INTEGER;
    select = select.where((eb) =>
      eb.or([
        eb.and([eb('start_ms', '<=', to), eb(eb.fn.coalesce('deadline_ms', 'start_ms'), '>=', from)]),
        eb.and([eb('updated_at', '>=', from), eb('updated_at', '<=', to)]),
        eb.and([eb('created_at', '>=', from), eb('created_at', '<=', to)]),
      ]),
    );
  }
  if (filter.subscriberIds?.length) select = select.where('subscriber_id', 'in', filter.subscriberIds);
  if (filter.statuses?.length) select = select.where('status', 'in', filter.statuses);
  if (filter.taskTypeIds?.length) select = select.where('task_type_id', 'in', filter.taskTypeIds);
  return select.orderBy('start_ms').orderBy('id').limit(filter.count).offset(filter.offset).execute();
}

/** A living task of the account (and of `assignee`, when given); `forUpdate` (PostgreSQL) locks it for a change. */
export async function findTask(executor: Db, accountId: number, id: number, assignee: number | null, forUpdate: boolean): Promise<TaskRow | null> {
  let select = executor.selectFrom('tasks').select(columns).where('account_id', '=', accountId).where('id', '=', id).where('deleted_at', 'is', null);
  if (assignee !== null) select = select.where('subscriber_id', '=', assignee);
  if (forUpdate) select = select.forUpdate();
  return (await select.executeTakeFirst()) ?? null;
}

/** The account's living tasks among `ids`, by id. */
export async function tasksByIds(db: Db, accountId: number, ids: number[]): Promise<TaskRow[]> {
  return db.selectFrom('tasks').select(columns).where('account_id', '=', accountId).where('id', 'in', ids).where('deleted_at', 'is', null).orderBy('id').execute();
}

export async function insertTask(tx: Tx, accountId: number, row: TaskColumns, createdAt: number, now: number): Promise<number> {
  const { id } = await tx
    .insertInto('tasks')
    .values({ ...row, account_id: accountId, created_at: createdAt, updated_at: now, deleted_at: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export async function updateTask(tx: Tx, accountId: number, id: number, row: TaskColumns, now: number): Promise<void> {
  await tx.updateTable('tasks').set({ ...row, updated_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}

export async function markTaskDeleted(tx: Tx, accountId: number, id: number, now: number): Promise<void> {
  await tx.updateTable('tasks').set({ deleted_at: now, updated_at: now }).where('account_id', '=', accountId).where('id', '=', id).execute();
}

/** One change of a task, in the change's transaction (its history). */
export async function insertTaskChange(tx: Tx, row: Insertable<TaskChangesTable>): Promise<void> {
  await tx.insertInto('task_changes').values(row).execute();
}

/** A task's changes, oldest first. */
export function listTaskChanges(db: Db, accountId: number, taskId: number) {
  return db.selectFrom('task_changes').selectAll().where('account_id', '=', accountId).where('task_id', '=', taskId).orderBy('id').execute();
}
