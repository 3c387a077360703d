import type { Account, AccountReader } from '../accounts/accounts.js';
import type { EmployeeDevices, IngestTarget } from '../employees/employees.js';
import { ApiError } from '../http/errors.js';
import type { Metrics } from '../http/observability.js';
import type { CommitSequence } from '../store/commit-sequence.js';
import type { Database, Tx } from '../store/database.js';
import type { Fix } from './fix.js';
import type { FixSource, IngestFrame, IngestPort } from './ingest-port.js';
import { IngestQueue, type Frame } from './ingest-queue.js';
import { gpsFilterSettingsOf } from './pipeline/fix-filter.js';
import type { PipelineRunner } from './pipeline/pipeline-runner.js';
import { trackSettingsOf } from './pipeline/pipeline-types.js';

/** Group transactions running at once on PostgreSQL (of the pool's 10 connections). */
const POSTGRES_INGEST_LANES = 4;

/** Told of every committed frame (the workspace's live map); never part of the transaction. */
export type CommittedFixesListener = (account: Account, fixes: readonly Fix[]) => void;

/** A device key no living employee has (400, like Traccar: the client logs it and does not retry for ever). */
export class UnknownDevice extends ApiError {
  constructor() {
    super('BAD_REQUEST', 'unknown device');
  }
}
const unknownDevice = () => new UnknownDevice();

/**
 * The ingest port (ingest-port.ts): one queue per process (ingest-queue.ts) whose groups run the
 * pipeline in one transaction each.
 */
export class FixIngest implements IngestPort {
  private readonly queue: IngestQueue;
  private readonly committedListeners = new Set<CommittedFixesListener>();

  private readonly database: Database;
  private readonly accounts: Pick<AccountReader, 'getCached'>;
  private readonly employees: EmployeeDevices;
  private readonly metrics: Metrics;
  private readonly pipeline: PipelineRunner;
  private readonly clock: () => number;

  constructor(options: {
    database: Database;
    accounts: Pick<AccountReader, 'getCached'>;
    employees: EmployeeDevices;
    metrics: Metrics;
    pipeline: PipelineRunner;
    clock: () => number;
  }) {
    const { database } = options;
    this.database = database;
    this.accounts = options.accounts;
    this.employees = options.employees;
    this.metrics = options.metrics;
    this.pipeline = options.pipeline;
    this.clock = options.clock;
    // SQLite has one writer; PostgreSQL overlaps a few groups' round trips and commits.
    this.queue = new IngestQueue((frames) => this.commitGroup(frames), database.dialect === 'postgres' ? POSTGRES_INGEST_LANES : 1);
  }

  submit(frame: IngestFrame): Promise<CommitSequence> {
    if ('deviceKey' in frame) return this.submitByDeviceKey(frame.source, frame.deviceKey, frame.fix);
    return this.queue.submit({ accountId: frame.accountId, fixes: frame.fixes, source: frame.source, unknown: frame.unknown ?? unknownDevice });
  }

  durable(commit: CommitSequence): Promise<void> {
    return this.database.durable(commit);
  }

  get durabilityChannel(): string | null {
    return this.database.durabilityChannel;
  }

  /** Calls `listener` after each committed frame, once durable, in this process; returns the way to stop. */
  onCommitted(listener: CommittedFixesListener): () => void {
    this.committedListeners.add(listener);
    return () => this.committedListeners.delete(listener);
  }

  /**
   * One fix sent with a device key: its owner comes from the employees' cache, checked in the
   * transaction; a key found stale there is looked up afresh once. Unknown key → UnknownDevice.
   */
  private async submitByDeviceKey(source: FixSource, deviceKey: string, fix: Omit<Fix, 'subscriberId'>): Promise<CommitSequence> {
    const submit = (owner: { accountId: number; subscriberId: number }) =>
      this.queue.submit({ accountId: owner.accountId, fixes: [{ ...fix, subscriberId: owner.subscriberId }], deviceKey, source, unknown: unknownDevice });
    const cached = await this.employees.findByDeviceKeyCached(deviceKey);
    if (!cached) throw unknownDevice();
    try {
      return await submit(cached);
    } catch (error) {
      // Refused in the transaction: the key may have moved to another employee since it was cached.
      if (!(error instanceof ApiError) || error.kind !== 'BAD_REQUEST') throw error;
      this.employees.forgetDeviceKey(deviceKey);
    }
    const owner = await this.employees.findByDeviceKey(deviceKey);
    if (!owner) throw unknownDevice();
    return submit(owner);
  }

  /**
   * The queue's transaction: the frames of each account in turn, in one transaction. A frame
   * naming an employee that is gone (or a device key that is no longer the employee's) is refused
   * before anything of it is written; the others go on.
   */
  private async commitGroup(frames: Frame[]): Promise<{ refused: Map<Frame, Error>; commit: CommitSequence }> {
    const receivedAt = this.clock();
    const refused = new Map<Frame, Error>();
    const byAccount = new Map<number, Frame[]>();
    for (const frame of frames) {
      const list = byAccount.get(frame.accountId);
      if (list) list.push(frame);
      else byAccount.set(frame.accountId, [frame]);
    }
    const accounts: [Account, Frame[]][] = [];
    const accountOf = new Map<number, Account>();
    for (const [accountId, list] of byAccount) {
      const account = await this.accounts.getCached(accountId);
      if (account) {
        accounts.push([account, list]);
        accountOf.set(accountId, account);
      } else for (const frame of list) refused.set(frame, frame.unknown(new Set(frame.fixes.map((fix) => fix.subscriberId))));
    }
    const committed: Frame[] = [];
    const { durable, commit } = await this.database.visibleTransaction(async (tx) => {
      for (const [account, list] of accounts) {
        const targets = await this.employees.ingestTargetsOf(tx, account.id, [...new Set(list.flatMap((f) => f.fixes.map((fix) => fix.subscriberId)))]);
        const kept = list.filter((frame) => {
          let unknown: Set<number> | null = null;
          for (const fix of frame.fixes) {
            const target = targets.get(fix.subscriberId);
            if (target === undefined || (frame.deviceKey !== undefined && target.deviceKey !== frame.deviceKey)) (unknown ??= new Set()).add(fix.subscriberId);
          }
          if (unknown) refused.set(frame, frame.unknown(unknown));
          return unknown === null;
        });
        if (kept.length === 0) continue;
        const fixes = kept.flatMap((frame) => frame.fixes);
        const frameOf = kept.flatMap((frame, index) => frame.fixes.map(() => index));
        const used = new Map(fixes.map((fix) => [fix.subscriberId, targets.get(fix.subscriberId)!]));
        await this.run(tx, account, fixes, frameOf, used, receivedAt);
        committed.push(...kept);
      }
    });
    void durable.then(
      () => {
        for (const frame of committed) this.committed(accountOf.get(frame.accountId)!, frame.fixes, frame.source);
      },
      () => {},
    );
    return { refused, commit };
  }

  /** The pipeline and isOnline for fixes of known employees, in the caller's transaction. */
  private async run(tx: Tx, account: Account, fixes: Fix[], frameOf: number[], targets: Map<number, IngestTarget>, receivedAt: number): Promise<void> {
    const vehicleSettings = new Map([...targets].map(([id, target]) => [id, target.vehicleSettings]));
    await this.pipeline.ingest(tx, { accountId: account.id, timeZone: account.timeZone, receivedAt, trackSettings: trackSettingsOf(account.settings.track), filterSettings: gpsFilterSettingsOf(account.settings.gpsFilter), vehicleSettings }, fixes, frameOf);
    // isOnline turns true when current fixes start arriving (an employee change event, in this transaction).
    const newestFixMs = new Map<number, number>();
    for (const fix of fixes) newestFixMs.set(fix.subscriberId, Math.max(fix.locationDateMs, newestFixMs.get(fix.subscriberId) ?? fix.locationDateMs));
    await this.employees.fixesArrived(tx, account, targets, newestFixMs, receivedAt);
  }

  private committed(account: Account, fixes: Fix[], source: FixSource): void {
    this.metrics.fixesIngested.inc({ source }, fixes.length);
    for (const listener of this.committedListeners) listener(account, fixes);
  }
}
