import { pino, type Logger } from 'pino';
import type { AccountReader } from '../accounts/accounts.js';
import type { OutboxWriter, OutgoingMessage } from '../delivery/delivery.js';
import type { Database } from '../store/database.js';
import { localDate } from './report-days.js';
import { reportFileName } from './report-files.js';
import { reportMailText } from './report-mail-text.js';
import type { ReportKind } from './kinds/report-kinds.js';
import { nextOccurrence, reportedPeriod, type ScheduleTiming } from './schedule-clock.js';
import { advanceSchedule, claimRun, dueSchedules, type ScheduleRow } from './schedule-store.js';

const POLL_MS = 30_000;
const BATCH = 100;

/** What a report e-mail's attachment is made from when it is sent (by the e-mail channel, through `ReportAttachments`). */
export interface ReportAttachmentSpec {
  source: 'report';
  filename: string;
  kind: ReportKind;
  fromMs: number;
  toMs: number;
  subscriberIDs: number[];
  subscriberGroupIDs: number[];
}

/** The outbox payload of a scheduled report's e-mail. */
export interface ReportMailPayload {
  subject: string;
  text: string;
  attachments: ReportAttachmentSpec[];
}

/**
 * Sends the report schedules. Every server runs one; each due occurrence of a schedule
 * is claimed in `report_runs` (unique on schedule and period) and its e-mails are written to the
 * outbox in the same transaction, so a send is never lost (the outbox retries until the mail
 * server takes it) nor doubled (a second server, or a restart, finds the claim taken). The XLSX is
 * made when the e-mail is sent, from the period written in its payload; nothing large is queued.
 * A server that was down sends the occurrences it missed, one after another.
 */
export class ReportScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private log: Logger = pino({ level: 'silent' });

  private readonly database: Database;
  private readonly accounts: Pick<AccountReader, 'get'>;
  private readonly outbox: OutboxWriter;
  private readonly clock: () => number;

  constructor(options: { database: Database; accounts: Pick<AccountReader, 'get'>; outbox: OutboxWriter; clock?: () => number }) {
    this.database = options.database;
    this.accounts = options.accounts;
    this.outbox = options.outbox;
    this.clock = options.clock ?? Date.now;
  }

  start(log?: Logger): void {
    if (log) this.log = log;
    this.timer = setInterval(() => void this.tick(), POLL_MS);
    this.timer.unref();
    void this.tick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Sends what is due now; resolves when done (one pass at a time). */
  tick(): Promise<void> {
    this.running ??= this.sendDue()
      .catch((error: unknown) => this.log.error({ err: error }, 'report schedules: a pass failed; the next one retries'))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async sendDue(): Promise<void> {
    for (;;) {
      const due = await dueSchedules(this.database.db, this.clock(), BATCH);
      for (const schedule of due) await this.sendOccurrence(schedule);
      if (due.length < BATCH) return;
    }
  }

  private async sendOccurrence(schedule: ScheduleRow): Promise<void> {
    const account = await this.accounts.get(schedule.account_id);
    if (!account) return;
    const timing: ScheduleTiming = { frequency: schedule.frequency as ScheduleTiming['frequency'], weekday: schedule.weekday, monthDay: schedule.month_day, time: schedule.time_of_day };
    const dueMs = schedule.next_run_ms;
    const period = reportedPeriod(timing, account.timeZone, dueMs);
    const nowMs = this.clock();
    await this.database.transaction(async (tx) => {
      if (await claimRun(tx, account.id, schedule.id, period, nowMs)) {
        const kind = schedule.report as ReportKind;
        const [first, last] = [localDate(period.fromMs, account.timeZone), localDate(period.toMs - 1, account.timeZone)];
        const subscriberIds = JSON.parse(schedule.subscriber_ids) as number[];
        const subscriberGroupIds = JSON.parse(schedule.subscriber_group_ids) as number[];
        const payload: ReportMailPayload = {
          ...reportMailText(account, { name: schedule.name, kind, timing, first, last, dueMs, subscriberIds, subscriberGroupIds }),
          attachments: [
            {
              source: 'report',
              filename: reportFileName(kind, first, last, 'xlsx'),
              kind,
              fromMs: period.fromMs,
              toMs: period.toMs - 1,
              subscriberIDs: subscriberIds,
              subscriberGroupIDs: subscriberGroupIds,
            },
          ],
        };
        const messages: OutgoingMessage[] = (JSON.parse(schedule.recipients) as string[]).map((target) => ({
          accountId: account.id,
          eventRuleId: null,
          channel: 'email',
          target,
          payload,
        }));
        await this.outbox.enqueue(tx, messages);
        this.log.info({ scheduleId: schedule.id, accountId: account.id, periodFrom: first, periodTo: last }, 'report schedule: e-mails queued');
      }
      await advanceSchedule(tx, account.id, schedule.id, dueMs, nextOccurrence(timing, account.timeZone, dueMs));
    });
  }
}
