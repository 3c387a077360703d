import type { FastifyBaseLogger } from 'fastify';
import { cutoffMs, DAY_MS, retentionOf, type Account, type AccountReader, type WorkspaceSessions } from '../accounts/accounts.js';
import type { AuditRetention } from '../audit/audit.js';
import { deleteFinishedDeliveries } from '../delivery/delivery.js';
import type { Files } from '../files/files.js';
import { deleteExpiredIdempotencyKeys } from '../http/idempotency.js';
import type { PositionRetention } from '../positioning/positioning.js';
import { deleteReportRunsBefore, REPORT_RUN_MIN_DAYS } from '../reports/reports.js';
import { addCounts, inBatches, NO_ROWS, type BatchCount } from '../store/batches.js';
import type { Database } from '../store/database.js';
import { tryLockRun, unlockRun } from './run-lock-store.js';

export interface RetentionSettings {
  /** RETENTION_DAYS: days of fixes an account without its own setting keeps; 0: for ever. */
  serverRetentionDays: number;
  /**
   * DELIVERY_RETENTION_DAYS: days finished deliveries are kept (fewer when the account keeps fixes
   * fewer), and the report schedules' sends (`report_runs`, never fewer than 31 days); 0: for ever.
   */
  deliveryRetentionDays: number;
  /** AUDIT_RETENTION_DAYS: days the audit log is kept; 0: for ever. */
  auditRetentionDays: number;
  /** Rows removed per transaction. */
  batchRows: number;
  /** Time between two runs. */
  intervalMs: number;
}

export const defaultRetentionSettings: RetentionSettings = { serverRetentionDays: 0, deliveryRetentionDays: 30, auditRetentionDays: 365, batchRows: 500, intervalMs: 3_600_000 };

/** What one run removed. */
export interface RetentionReport {
  /** True when another server held the run (PostgreSQL): this one removed nothing. */
  skipped: boolean;
  partitionsDropped: string[];
  /** Fixes removed row by row (on PostgreSQL, besides the weeks dropped whole). */
  fixes: BatchCount;
  checkpoints: number;
  requests: number;
  tracks: BatchCount;
  events: BatchCount;
  buckets: BatchCount;
  zoneVisits: BatchCount;
  deliveries: BatchCount;
  idempotencyKeys: BatchCount;
  reportRuns: BatchCount;
  /** Form files: those of deleted tasks, and those older than the account keeps tracks. */
  files: BatchCount;
  auditEntries: BatchCount;
  sessions: number;
}

export interface RetentionJobOptions {
  database: Database;
  /** Every account, for its own retention. */
  accounts: Pick<AccountReader, 'listAccounts'>;
  /** Ended workspace sessions are forgotten too. */
  sessions: Pick<WorkspaceSessions, 'forgetEnded'>;
  /** Positioning's part: fixes, what was derived from them, the weekly partitions. */
  positions: PositionRetention;
  /** Form files go with their task, and by age as tracks do. */
  files?: Pick<Files, 'removeExpired'>;
  /** The audit log's entries older than AUDIT_RETENTION_DAYS; none: not purged here. */
  audit?: AuditRetention;
  settings?: RetentionSettings;
  clock?: () => number;
}

/**
 * Retention (docs/operators/retention.md): hourly, each account's fixes older than its retention go, and
 * its tracks, vehicle events, statistics, closed zone visits and form files at four times that (form files of deleted tasks at once); finished
 * deliveries, report schedules' past sends, audit entries past AUDIT_RETENTION_DAYS, expired idempotency keys and ended sessions too. On PostgreSQL the weekly partitions of fixes older
 * than every account's cut-off are dropped whole and the rest deleted in small batches; on SQLite
 * everything goes in small batches, each its own short transaction, so ingestion waits at most
 * for one. Weeks of partitions ahead are made on every run as well.
 */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;
  private stopping = false;

  private readonly database: Database;
  private readonly accounts: Pick<AccountReader, 'listAccounts'>;
  private readonly sessions: Pick<WorkspaceSessions, 'forgetEnded'>;
  private readonly positions: PositionRetention;
  private readonly files: Pick<Files, 'removeExpired'> | null;
  private readonly audit: AuditRetention | null;
  private readonly settings: RetentionSettings;
  private readonly clock: () => number;

  constructor(options: RetentionJobOptions) {
    this.database = options.database;
    this.accounts = options.accounts;
    this.sessions = options.sessions;
    this.positions = options.positions;
    this.files = options.files ?? null;
    this.audit = options.audit ?? null;
    this.settings = options.settings ?? defaultRetentionSettings;
    this.clock = options.clock ?? Date.now;
  }

  /** The weekly partitions ahead of now (PostgreSQL); the server awaits this before taking fixes. */
  makePartitionsAhead(): Promise<void> {
    return this.positions.makePartitionsAhead(this.clock());
  }

  /** Runs now, then every `intervalMs`; failures are logged and the next run tries again. */
  start(log: FastifyBaseLogger): void {
    const round = () => {
      if (this.running) return;
      this.running = this.makePartitionsAhead()
        .then(() => this.runOnce())
        .then((report) => {
          if (!report.skipped) log.info({ ...report }, 'retention run finished');
        })
        .catch((error: unknown) => log.error({ err: error }, 'retention run failed; retrying at the next round'))
        .finally(() => {
          this.running = null;
        });
    };
    round();
    this.timer = setInterval(round, this.settings.intervalMs);
    this.timer.unref();
  }

  /** Stops the rounds; one in progress ends after its current batch. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.stopping = true;
    this.positions.stop();
    await this.running;
  }

  /** One run; on PostgreSQL skipped (and says so) while another server runs one. */
  async runOnce(): Promise<RetentionReport> {
    if (this.database.dialect !== 'postgres') return this.removeAll();
    return this.database.db.connection().execute(async (connection) => {
      if (!(await tryLockRun(connection))) return { ...emptyReport(), skipped: true };
      try {
        return await this.removeAll();
      } finally {
        await unlockRun(connection);
      }
    });
  }

  private async removeAll(): Promise<RetentionReport> {
    const now = this.clock();
    const report = emptyReport();
    const accounts = await this.accounts.listAccounts();
    const cutoffs = accounts.map((account) => ({ account, ...this.cutoffsOf(account, now) }));

    // First every account's mark, so that no replay starts where fixes are about to go.
    for (const { account, fixesBeforeMs } of cutoffs) {
      if (fixesBeforeMs !== null) report.checkpoints += await this.positions.closeBefore(account.id, fixesBeforeMs);
    }
    // Whole weeks older than every account's cut-off (none while some account keeps fixes for ever).
    const everyCutoff = cutoffs.map((c) => c.fixesBeforeMs);
    if (everyCutoff.length > 0 && everyCutoff.every((c) => c !== null)) {
      report.partitionsDropped = await this.positions.dropWeeksBefore(Math.min(...(everyCutoff as number[])));
    }
    const stopped = () => this.stopping;
    for (const { account, fixesBeforeMs, derivedBeforeMs, deliveriesBeforeMs, reportRunsBeforeMs } of cutoffs) {
      if (stopped()) break;
      if (fixesBeforeMs !== null) {
        const removed = await this.positions.removeFixes(account.id, fixesBeforeMs);
        report.fixes = addCounts(report.fixes, removed.fixes);
        report.requests += removed.requests;
      }
      if (derivedBeforeMs !== null) {
        const removed = await this.positions.removeDerived(account.id, derivedBeforeMs);
        report.tracks = addCounts(report.tracks, removed.tracks);
        report.events = addCounts(report.events, removed.events);
        report.buckets = addCounts(report.buckets, removed.buckets);
        report.zoneVisits = addCounts(report.zoneVisits, removed.zoneVisits);
      }
      const { batchRows } = this.settings;
      if (deliveriesBeforeMs !== null) {
        report.deliveries = addCounts(report.deliveries, await inBatches(() => deleteFinishedDeliveries(this.database, account.id, deliveriesBeforeMs, batchRows), batchRows, stopped));
      }
      if (reportRunsBeforeMs !== null) {
        report.reportRuns = addCounts(report.reportRuns, await inBatches(() => deleteReportRunsBefore(this.database, account.id, reportRunsBeforeMs, batchRows), batchRows, stopped));
      }
      const { files } = this;
      if (files) {
        // A form's pictures are kept as long as the tracks of the day they were taken.
        report.files = addCounts(report.files, await inBatches(() => files.removeExpired(account, derivedBeforeMs, batchRows), batchRows, stopped));
      }
      const { audit } = this;
      const { auditRetentionDays } = this.settings;
      if (audit && auditRetentionDays > 0) {
        const auditBeforeMs = now - auditRetentionDays * DAY_MS;
        report.auditEntries = addCounts(report.auditEntries, await inBatches(() => audit.purgeBefore(account.id, auditBeforeMs, batchRows), batchRows, stopped));
      }
      report.idempotencyKeys = addCounts(report.idempotencyKeys, await inBatches(() => deleteExpiredIdempotencyKeys(this.database, account.id, now, batchRows), batchRows, stopped));
    }
    report.sessions = await this.sessions.forgetEnded();
    return report;
  }

  private cutoffsOf(account: Account, now: number) {
    const retention = retentionOf(account, this.settings.serverRetentionDays);
    const deliveryDays = [retention.fixesDays, this.settings.deliveryRetentionDays].filter((days) => days > 0);
    // Report sends hold no positions: the account's retention does not shorten them.
    const { deliveryRetentionDays } = this.settings;
    return {
      fixesBeforeMs: cutoffMs(retention.fixesDays, now),
      derivedBeforeMs: cutoffMs(retention.derivedDays, now),
      deliveriesBeforeMs: deliveryDays.length > 0 ? now - Math.min(...deliveryDays) * DAY_MS : null,
      reportRunsBeforeMs: deliveryRetentionDays > 0 ? now - Math.max(deliveryRetentionDays, REPORT_RUN_MIN_DAYS) * DAY_MS : null,
    };
  }
}

function emptyReport(): RetentionReport {
  return {
    skipped: false,
    partitionsDropped: [],
    fixes: NO_ROWS,
    checkpoints: 0,
    requests: 0,
    tracks: NO_ROWS,
    events: NO_ROWS,
    buckets: NO_ROWS,
    zoneVisits: NO_ROWS,
    deliveries: NO_ROWS,
    idempotencyKeys: NO_ROWS,
    reportRuns: NO_ROWS,
    files: NO_ROWS,
    auditEntries: NO_ROWS,
    sessions: 0,
  };
}
