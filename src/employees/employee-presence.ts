import type { Account, AccountReader } from '../accounts/accounts.js';
import type { Database, Tx } from '../store/database.js';
import { fromRow } from './employee-rows.js';
import { PRESENCE_AGENT_ID } from '../events/events.js';
import { entityIdOf, type EmployeeChange, type EmployeeChanges } from './employee-changes.js';
import { presenceToFlip, silentOnline, touchSeenAt, writeOnline } from './employee-store.js';

export interface PresenceOptions {
  database: Database;
  accounts: Pick<AccountReader, 'get'>;
  clock: () => number;
  /** ONLINE_TIMEOUT: isOnline turns false when no fix arrived for this long. */
  onlineTimeoutMs?: number;
  /** Where the flips go, as employee changes by the presence agent. */
  changes: EmployeeChanges;
}

/** An employee's presence columns, as read in the ingest transaction. */
export interface PresenceRow {
  id: number;
  is_online: number;
  seen_at: number | null;
}

const DEFAULT_ONLINE_TIMEOUT_MS = 10 * 60_000;
const SWEEP_BATCH = 500;

/**
 * isOnline of interface 2.9, kept by the service itself (CONTRACT §4: agentID): true once fixes
 * arrive, false once none arrived for ONLINE_TIMEOUT. The flag and the last arrival time are
 * columns of `subscribers`; every flip is an employee change event.
 */
export class EmployeePresence {
  readonly onlineTimeoutMs: number;
  /**
   * How stale the stored arrival time may get before a batch rewrites it: a tenth of the timeout,
   * at most 30 s, so a vehicle reporting every few seconds costs one write per that period.
   */
  readonly seenGranularityMs: number;

  private readonly database: Database;
  private readonly accounts: Pick<AccountReader, 'get'>;
  private readonly clock: () => number;
  private readonly changes: EmployeeChanges;

  constructor(options: PresenceOptions) {
    this.database = options.database;
    this.accounts = options.accounts;
    this.clock = options.clock;
    this.changes = options.changes;
    this.onlineTimeoutMs = options.onlineTimeoutMs ?? DEFAULT_ONLINE_TIMEOUT_MS;
    this.seenGranularityMs = Math.min(30_000, Math.floor(this.onlineTimeoutMs / 10));
  }

  /**
   * Fixes arrived for these employees (the ingest transaction, CONTRACT §4): an employee whose
   * isOnline is false turns true, an employee change by the presence agent. For the others only
   * the arrival time is kept, and only when it is staler than `seenGranularityMs`, so a batch
   * usually costs nothing here. `rows` are the employees' presence columns as the ingest
   * transaction read them (EmployeeService.ingestTargetsOf), so no second read is needed.
   *
   * Only a fix at most ONLINE_TIMEOUT older than its arrival counts: a phone uploading an earlier
   * working day, or a tracker emptying its buffer, is not online at the place it was hours ago, and
   * such an upload neither turns anyone online nor keeps anyone online longer.
   */
  async fixesArrived(tx: Tx, account: Account, arrived: readonly (PresenceRow & { newestFixMs: number })[], atMs: number): Promise<void> {
    const rows = arrived.filter((r) => r.newestFixMs >= atMs - this.onlineTimeoutMs);
    if (rows.length === 0) return;
    const offline = rows.filter((r) => r.is_online === 0).map((r) => r.id);
    const stale = rows.filter((r) => r.is_online === 1 && (r.seen_at ?? 0) < atMs - this.seenGranularityMs).map((r) => r.id);
    if (stale.length > 0) {
      // Not updated: the sweeper turned it offline since the read above; it is back online now.
      const kept = new Set(await touchSeenAt(tx, this.database, account.id, stale, atMs));
      offline.push(...stale.filter((id) => !kept.has(id)));
    }
    if (offline.length > 0) await this.setOnline(tx, account, offline, { online: true, atMs });
  }

  /**
   * isOnline true → false for employees no fix arrived for in `onlineTimeoutMs` (for every
   * account; run periodically). The stored arrival time may be up to `seenGranularityMs` older
   * than the last arrival, so silence is certain only that much later. The event is dated when the
   * silence began to count as offline, and fired now. Returns how many employees went offline.
   */
  async sweepOffline(): Promise<number> {
    let flipped = 0;
    for (;;) {
      const now = this.clock();
      const cutoff = now - this.onlineTimeoutMs - this.seenGranularityMs;
      const candidates = await silentOnline(this.database.db, cutoff, SWEEP_BATCH);
      const byAccount = new Map<number, number[]>();
      for (const c of candidates) byAccount.set(c.account_id, [...(byAccount.get(c.account_id) ?? []), c.id]);
      let round = 0;
      for (const [accountId, ids] of byAccount) {
        const account = await this.accounts.get(accountId);
        if (account) round += await this.database.transaction((tx) => this.setOnline(tx, account, ids, { online: false, cutoff, nowMs: now }));
      }
      flipped += round;
      // Another server may have flipped this round's candidates first: then the next round would find the same.
      if (candidates.length < SWEEP_BATCH || round === 0) return flipped;
    }
  }

  /**
   * Flips isOnline of those of `ids` whose flag is not yet the new one (and, going offline, that
   * are still silent since `cutoff`), rechecked under the rows' locks so that two servers flip an
   * employee once. Each flip is an employee change by the presence agent: going online dated
   * when the fixes arrived; going offline dated when the silence reached the timeout, fired now.
   */
  private async setOnline(
    tx: Tx,
    account: Account,
    ids: number[],
    flip: { online: true; atMs: number } | { online: false; cutoff: number; nowMs: number },
  ): Promise<number> {
    const rows = await presenceToFlip(tx, this.database, account.id, ids, {
      online: flip.online,
      silentSince: flip.online ? null : flip.cutoff,
      forUpdate: this.database.dialect === 'postgres',
    });
    if (rows.length === 0) return 0;
    await writeOnline(
      tx,
      this.database,
      account.id,
      rows.map((r) => r.id),
      flip.online ? { atMs: flip.atMs } : null,
    );
    const seenAt = new Map(rows.map((r) => [r.id, r.seen_at ?? 0]));
    const timing = (change: EmployeeChange) =>
      flip.online
        ? { atMs: flip.atMs, firedMs: flip.atMs }
        : { atMs: Math.min(flip.nowMs, seenAt.get(entityIdOf(change))! + this.onlineTimeoutMs), firedMs: flip.nowMs };
    const changes = rows.map((row): EmployeeChange => {
      const before = fromRow(row);
      return { type: 'edit', before, after: { ...before, isOnline: flip.online } };
    });
    await this.changes.commit(tx, account, changes, { agentID: PRESENCE_AGENT_ID }, timing);
    return rows.length;
  }
}

