import { sql, type RawBuilder } from 'kysely';
import { BulkWriter, bulkInsert, bulkUpdate } from '../store/bulk-writer.js';
import type { Database, Tx } from '../store/database.js';
import type { DeliveriesTable, DeliveryAttemptsTable } from '../store/schema.js';
import type { ClaimedDelivery } from './channel-sender.js';
import type { Channel } from './outbox.js';

/**
 * The outbox as a queue, in SQL (one statement per purpose, as graphile-worker does it).
 *
 * Order per target (account, channel, target): only a target's head, its earliest pending row,
 * may be claimed, so nothing overtakes a delivery that is waiting for its retry.
 *
 * PostgreSQL, several servers: a claim is a lease in the row (`locked_by`, `locked_until`) that
 * the holder's heartbeat renews; a crashed holder's rows come free when the lease runs out.
 * Claims take `FOR UPDATE SKIP LOCKED`, so servers share the work without waiting on each other.
 *
 * SQLite, one server: the worker's lanes are the claims, in memory; writing them would cost an
 * fsync each (synchronous=FULL) and protect against nobody. A restart starts with no claims,
 * which is what the table says too.
 */

/** The earliest pending row of one target. */
export interface Head {
  id: number;
  key: string;
  nextAttemptAt: number;
  lockedUntil: number | null;
  delivery: ClaimedDelivery;
}

/** What an attempt did to its delivery. */
export interface AttemptResult {
  delivery: ClaimedDelivery;
  attemptedAt: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** `delivered`, `failed` (for good), or `pending` with the next attempt's time. */
  status: 'pending' | 'delivered' | 'failed';
  nextAttemptAt: number;
}

export const targetKey = (d: { accountId: number; channel: string; target: string }) => `${d.accountId}\u0000${d.channel}\u0000${d.target}`;

/** An attempt as recorded. */
type AttemptWrite = Omit<DeliveryAttemptsTable, 'id'>;
/** An attempt's effect on its delivery (SQLite; PostgreSQL checks the claim in its own statement). */
type ResultWrite = Pick<
  DeliveriesTable,
  'account_id' | 'status' | 'next_attempt_at' | 'finished_at' | 'last_status_code' | 'last_error' | 'locked_by' | 'locked_until'
> & { id: number; attempt_count: number };

const INSERT_ATTEMPTS = bulkInsert<'delivery_attempts', AttemptWrite>({
  table: 'delivery_attempts',
  columns: { delivery_id: 'bigint', account_id: 'bigint', attempted_at: 'bigint', duration_ms: 'integer', status_code: 'integer', error: 'text' },
});

const UPDATE_RESULTS = bulkUpdate<'deliveries', ResultWrite>({
  table: 'deliveries',
  key: ['account_id', 'id'],
  columns: {
    account_id: 'bigint',
    id: 'bigint',
    status: 'text',
    attempt_count: 'integer',
    next_attempt_at: 'bigint',
    finished_at: 'bigint',
    last_status_code: 'integer',
    last_error: 'text',
    locked_by: 'text',
    locked_until: 'bigint',
  },
});

const CLAIMED = sql.raw('id, account_id, event_rule_id, channel, target, message_id, payload, attempt_count, next_attempt_at, created_at');

type ClaimedRow = {
  id: number;
  account_id: number;
  event_rule_id: number | null;
  channel: string;
  target: string;
  message_id: string;
  payload: string;
  attempt_count: number;
  next_attempt_at: number;
  created_at: number;
};

export class DeliveryQueue {
  private readonly bulk: BulkWriter;
  private readonly pg: boolean;

  constructor(private readonly database: Database) {
    this.bulk = new BulkWriter(database);
    this.pg = database.dialect === 'postgres';
  }

  /**
   * The head of every target that has pending deliveries: a skip scan over the partial index of
   * pending rows, one seek per target however long its queue is (a receiver that is down for a
   * day may have a long one).
   */
  async findHeads(limit: number): Promise<Head[]> {
    const { rows } = await sql<ClaimedRow & { locked_until: number | null }>`
      WITH RECURSIVE heads(id) AS (
        SELECT (SELECT id FROM deliveries WHERE status = 'pending' ORDER BY account_id, channel, target, id LIMIT 1)
        UNION ALL
        -- The next target after the current head's, in index order. Three seeks rather than one
        -- row-value comparison: SQLite's planner seeks a row value on its first column only.
        SELECT COALESCE(
          (SELECT n.id FROM deliveries n WHERE n.status = 'pending' AND n.account_id = c.account_id AND n.channel = c.channel AND n.target > c.target
           ORDER BY n.account_id, n.channel, n.target, n.id LIMIT 1),
          (SELECT n.id FROM deliveries n WHERE n.status = 'pending' AND n.account_id = c.account_id AND n.channel > c.channel
           ORDER BY n.account_id, n.channel, n.target, n.id LIMIT 1),
          (SELECT n.id FROM deliveries n WHERE n.status = 'pending' AND n.account_id > c.account_id
           ORDER BY n.account_id, n.channel, n.target, n.id LIMIT 1))
        FROM heads JOIN deliveries c ON c.id = heads.id
      )
      SELECT ${CLAIMED}, locked_until FROM deliveries WHERE id IN (SELECT id FROM heads)
      LIMIT ${limit}`.execute(this.database.db);
    return rows.map((r) => ({
      id: r.id,
      key: targetKey({ accountId: r.account_id, channel: r.channel, target: r.target }),
      nextAttemptAt: r.next_attempt_at,
      lockedUntil: r.locked_until,
      delivery: toClaimed(r),
    }));
  }

  /**
   * Claims heads found due and free. PostgreSQL: if they still are (another server may have
   * taken one since); SQLite: the lanes that will send them are the claims.
   */
  async claimHeads(heads: Head[], me: string, now: number, leaseUntil: number): Promise<ClaimedDelivery[]> {
    if (heads.length === 0) return [];
    if (!this.pg) return heads.map((h) => h.delivery);
    const { rows } = await this.withoutFsync((tx) => sql<ClaimedRow>`
      UPDATE deliveries SET locked_by = ${me}, locked_until = ${leaseUntil}
      WHERE id IN (SELECT id FROM deliveries
                   WHERE id = ANY(${heads.map((h) => h.id)}::bigint[]) AND status = 'pending' AND next_attempt_at <= ${now}
                     AND (locked_until IS NULL OR locked_until < ${now})
                   FOR UPDATE SKIP LOCKED)
      RETURNING ${CLAIMED}`.execute(tx));
    return rows.map(toClaimed).sort((a, b) => a.id - b.id);
  }

  /**
   * The next deliveries of a target this worker is sending, after `afterId`, in order: the
   * unbroken run of free ones (a row another worker holds ends the run). Their predecessors are
   * still held by this worker or already done, so none of them can be anybody else's head.
   */
  async claimRun(head: { accountId: number; channel: string; target: string }, afterId: number, me: string, now: number, leaseUntil: number, limit: number): Promise<ClaimedDelivery[]> {
    const next = <Row>(columns: RawBuilder<unknown>, lock: string) => sql<Row>`
      SELECT ${columns} FROM deliveries
      WHERE status = 'pending' AND account_id = ${head.accountId} AND channel = ${head.channel} AND target = ${head.target} AND id > ${afterId}
      ORDER BY account_id, channel, target, id LIMIT ${limit}${sql.raw(lock)}`;
    if (!this.pg) return (await next<ClaimedRow>(CLAIMED, '').execute(this.database.db)).rows.map(toClaimed);
    return this.withoutFsync(async (tx) => {
      const { rows } = await next<{ id: number; locked_until: number | null }>(sql.raw('id, locked_until'), ' FOR UPDATE').execute(tx);
      const ids: number[] = [];
      for (const row of rows) {
        if (row.locked_until !== null && row.locked_until >= now) break;
        ids.push(row.id);
      }
      if (ids.length === 0) return [];
      const claimed = await sql<ClaimedRow>`
        UPDATE deliveries SET locked_by = ${me}, locked_until = ${leaseUntil}
        WHERE account_id = ${head.accountId} AND id IN (${sql.join(ids)}) RETURNING ${CLAIMED}`.execute(tx);
      return claimed.rows.map(toClaimed).sort((a, b) => a.id - b.id);
    });
  }

  /**
   * Extends every lease this worker holds (the heartbeat; PostgreSQL only). Rows another of its
   * transactions has locked (their results being written) are skipped: waiting for them, in
   * whatever order the two statements meet the rows, could deadlock.
   */
  async renewLeases(me: string, leaseUntil: number): Promise<void> {
    if (!this.pg) return;
    await sql`UPDATE deliveries SET locked_until = ${leaseUntil}
              WHERE id IN (SELECT id FROM deliveries WHERE locked_by = ${me} AND status = 'pending' FOR UPDATE SKIP LOCKED)`.execute(this.database.db);
  }

  /** Frees every claim in the table (SQLite at start: whatever is there, no living worker holds). */
  async releaseAllClaims(): Promise<number> {
    const result = await this.database.db
      .updateTable('deliveries')
      .set({ locked_by: null, locked_until: null })
      .where('locked_by', 'is not', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Writes attempts and their effect, and frees claims this worker no longer needs, in one
   * transaction (many lanes' results share one commit). A row whose lease this worker lost
   * keeps what its new holder wrote; the attempt is recorded all the same.
   */
  async record(results: AttemptResult[], releases: number[], me: string): Promise<void> {
    await this.withoutFsync((tx) => this.write(tx, results, releases, me));
  }

  /**
   * A transaction that commits without waiting for the disk: claims and attempt results. A crash
   * of the machine (not of the process) may forget the newest of them: a forgotten claim frees
   * itself, a forgotten result makes the delivery go again, which at-least-once allows. What
   * producers commit (the outbox rows) keeps the store's full durability.
   * PostgreSQL: `SET LOCAL synchronous_commit = off`, for this transaction only.
   * SQLite: synchronous=NORMAL on the one connection, held meanwhile so nothing else commits that
   * way; every later commit with synchronous=FULL makes these durable too (same write-ahead log).
   */
  private async withoutFsync<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    if (this.pg) {
      return this.database.transaction(async (tx) => {
        await sql`SET LOCAL synchronous_commit = off`.execute(tx);
        return fn(tx);
      });
    }
    return this.database.db.connection().execute(async (connection) => {
      const [{ synchronous }] = (await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(connection)).rows as [{ synchronous: number }];
      await sql`PRAGMA synchronous = NORMAL`.execute(connection);
      try {
        return await connection.transaction().execute(fn);
      } finally {
        await sql`PRAGMA synchronous = ${sql.raw(String(synchronous))}`.execute(connection);
      }
    });
  }

  private async write(tx: Tx, results: AttemptResult[], releases: number[], me: string): Promise<void> {
    const attempts = results.map((r): AttemptWrite => ({
      delivery_id: r.delivery.id,
      account_id: r.delivery.accountId,
      attempted_at: r.attemptedAt,
      duration_ms: r.durationMs,
      status_code: r.statusCode,
      error: r.error,
    }));
    await this.bulk.insert(tx, INSERT_ATTEMPTS, attempts);
    await this.applyResults(tx, results, me);
    if (this.pg && releases.length > 0) {
      await tx.updateTable('deliveries').set({ locked_by: null, locked_until: null }).where('id', 'in', releases).where('locked_by', '=', me).execute();
    }
  }

  private async applyResults(tx: Tx, results: AttemptResult[], me: string): Promise<void> {
    if (results.length === 0) return;
    const finishedAt = (r: AttemptResult) => (r.status === 'pending' ? null : r.attemptedAt + r.durationMs);
    if (this.pg) {
      const column = <T>(f: (r: AttemptResult) => T) => results.map(f);
      await sql`
        UPDATE deliveries AS d
        SET status = u.status, attempt_count = d.attempt_count + 1, next_attempt_at = u.next_attempt_at, finished_at = u.finished_at,
            last_status_code = u.status_code, last_error = u.error, locked_by = NULL, locked_until = NULL
        FROM unnest(${column((r) => r.delivery.accountId)}::bigint[], ${column((r) => r.delivery.id)}::bigint[], ${column((r) => r.status)}::text[],
                    ${column((r) => r.nextAttemptAt)}::bigint[], ${column(finishedAt)}::bigint[], ${column((r) => r.statusCode)}::integer[],
                    ${column((r) => r.error)}::text[])
             AS u(account_id, id, status, next_attempt_at, finished_at, status_code, error)
        WHERE d.account_id = u.account_id AND d.id = u.id AND d.locked_by = ${me}`.execute(tx);
      return;
    }
    // SQLite: one cached statement run per row (no claim to check: the lanes are the claims).
    await this.bulk.update(
      tx,
      UPDATE_RESULTS,
      results.map((r) => ({
        account_id: r.delivery.accountId,
        id: r.delivery.id,
        status: r.status,
        attempt_count: r.delivery.attemptCount + 1,
        next_attempt_at: r.nextAttemptAt,
        finished_at: finishedAt(r),
        last_status_code: r.statusCode,
        last_error: r.error,
        locked_by: null,
        locked_until: null,
      })),
    );
  }
}

function toClaimed(row: ClaimedRow): ClaimedDelivery {
  return {
    id: row.id,
    accountId: row.account_id,
    eventRuleId: row.event_rule_id,
    channel: row.channel as Channel,
    target: row.target,
    messageId: row.message_id,
    payload: row.payload,
    attemptCount: row.attempt_count,
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
  };
}
