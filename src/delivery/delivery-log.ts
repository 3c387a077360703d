import type { Account } from '../accounts/accounts.js';
import { formatDateTime } from '../http/datetime.js';
import { ApiError } from '../http/errors.js';
import { resolvePeriod } from '../http/list-params.js';
import type { Database, Db } from '../store/database.js';
import type { Delivery, DeliveryListQuery } from './delivery-schema.js';
import { DELIVERIES_CHANNEL } from './outbox.js';
import { attemptsOf, findDelivery, listDeliveries, notifyWorkers, requeueDelivery, type DeliveryRow } from './delivery-log-store.js';

const notFound = (id: number) => new ApiError('DELIVERY_NOT_FOUND', `no delivery ${id}`);

/**
 * The deliveries log (CONTRACT §4): every delivery of the account with its attempts, and the
 * resend of one that failed or was delivered. Newest first by `deliveryID`; page with `offset`
 * or by passing the last id seen as `lastDeliveryID` (only smaller ids come back).
 */
export class DeliveryLog {
  constructor(
    private readonly database: Database,
    /** Wakes this server's worker after a resend. */
    private readonly nudge: () => void,
    private readonly clock: () => number = Date.now,
  ) {}

  async list(account: Account, query: DeliveryListQuery): Promise<{ data: Delivery[] }> {
    const period = resolvePeriod(query, { from: 'dateFrom', to: 'dateTo' }, account.timeZone, this.clock());
    const rows = await listDeliveries(this.database.db, account.id, {
      fromMs: period.fromMs,
      toMs: period.toMs,
      status: query.status,
      eventRuleId: query.eventID,
      beforeId: query.lastDeliveryID,
      count: query.count ?? 1000,
      offset: query.offset ?? 0,
    });
    return { data: await this.withAttempts(this.database.db, account, rows) };
  }

  async get(account: Account, id: number): Promise<Delivery> {
    const row = await findDelivery(this.database.db, account.id, id);
    if (!row) throw notFound(id);
    return (await this.withAttempts(this.database.db, account, [row]))[0]!;
  }

  /**
   * Queues a failed or delivered delivery again, now, with the same message id (the receiver's
   * dedup key) and a fresh retry schedule; its attempts so far stay in the log. A pending one is
   * a conflict: it is already going to be sent. The answer is the delivery as the resend left it,
   * read in the same transaction: once it commits, a worker (woken by the notification) may send it
   * before a later read, and the answer would show attempts the resend did not make.
   */
  async resend(account: Account, id: number): Promise<Delivery> {
    const now = this.clock();
    const resent = await this.database.transaction(async (tx) => {
      const requeued = await requeueDelivery(tx, account.id, id, now);
      const row = await findDelivery(tx, account.id, id);
      if (!row) throw notFound(id);
      if (!requeued) throw new ApiError('CONFLICT', `delivery ${id} is already pending`, { deliveryID: `is ${row.status}` });
      if (this.database.dialect === 'postgres') await notifyWorkers(tx, DELIVERIES_CHANNEL);
      return (await this.withAttempts(tx, account, [row]))[0]!;
    });
    this.nudge();
    return resent;
  }

  private async withAttempts(executor: Db, account: Account, rows: DeliveryRow[]): Promise<Delivery[]> {
    const { timeZone } = account;
    if (rows.length === 0) return [];
    const attempts = await attemptsOf(executor, account.id, rows.map((r) => r.id));
    const byDelivery = new Map<number, Delivery['attempts']>();
    for (const a of attempts) {
      const list = byDelivery.get(a.delivery_id) ?? [];
      list.push({ attemptedAt: formatDateTime(a.attempted_at, timeZone), statusCode: a.status_code, durationMs: a.duration_ms, error: a.error });
      byDelivery.set(a.delivery_id, list);
    }
    return rows.map((row) => ({
      deliveryID: row.id,
      eventID: row.event_rule_id,
      channel: row.channel,
      target: row.target,
      messageID: row.message_id,
      status: row.status,
      createdAt: formatDateTime(row.created_at, timeZone),
      nextAttemptAt: row.status === 'pending' ? formatDateTime(row.next_attempt_at, timeZone) : null,
      finishedAt: row.finished_at === null ? null : formatDateTime(row.finished_at, timeZone),
      attemptCount: row.attempt_count,
      lastStatusCode: row.last_status_code,
      lastError: row.last_error,
      payload: JSON.parse(row.payload) as unknown,
      attempts: byDelivery.get(row.id) ?? [],
    }));
  }
}
