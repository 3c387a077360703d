import type { Db } from '../store/database.js';

/** Open statuses (interface 2.8): 0 new, 1 accepted, 4 in progress; 2 rejected and 3 done are closed. */
const OPEN_STATUSES = [0, 1, 4];

/** Where an employee is expected: an open task with a point, as the estimated-arrival signal needs it (6.3 type 24). */
export interface TaskDestination {
  taskId: number;
  subscriberId: number;
  externalId: string | null;
  startMs: number | null;
  deadlineMs: number | null;
  latitude: number;
  longitude: number;
  clientName: string;
  clientPhone: string;
  customFields: { externalID: string; value: unknown }[];
}

/**
 * The open tasks with a point of these employees that start before `startsBeforeMs`, by employee,
 * read in the caller's transaction (the signal pipeline's). Deleted tasks are not listed.
 */
export async function openTaskDestinations(executor: Db, accountId: number, subscriberIds: number[], startsBeforeMs: number): Promise<Map<number, TaskDestination[]>> {
  const bySubscriber = new Map<number, TaskDestination[]>();
  if (subscriberIds.length === 0) return bySubscriber;
  const rows = await executor
    .selectFrom('tasks')
    .select(['id', 'subscriber_id', 'external_id', 'start_ms', 'deadline_ms', 'document'])
    .where('account_id', '=', accountId)
    .where('subscriber_id', 'in', subscriberIds)
    .where('status', 'in', OPEN_STATUSES)
    .where('deleted_at', 'is', null)
    .where((eb) => eb.or([eb('start_ms', 'is', null), eb('start_ms', '<=', startsBeforeMs)]))
    .orderBy('id')
    .execute();
  for (const row of rows) {
    const document = JSON.parse(row.document) as Record<string, unknown>;
    const { latitude, longitude } = document;
    if (row.subscriber_id === null || typeof latitude !== 'number' || typeof longitude !== 'number') continue;
    const items = Array.isArray(document.customFieldFormItems) ? (document.customFieldFormItems as Record<string, unknown>[]) : [];
    const destination: TaskDestination = {
      taskId: row.id,
      subscriberId: row.subscriber_id,
      externalId: row.external_id,
      startMs: row.start_ms,
      deadlineMs: row.deadline_ms,
      latitude,
      longitude,
      clientName: typeof document.clientName === 'string' ? document.clientName : '',
      clientPhone: typeof document.clientPhone === 'string' ? document.clientPhone : '',
      customFields: items.map((item) => ({ externalID: String(item.externalID ?? ''), value: item.value ?? null })),
    };
    const list = bySubscriber.get(row.subscriber_id);
    if (list) list.push(destination);
    else bySubscriber.set(row.subscriber_id, [destination]);
  }
  return bySubscriber;
}
