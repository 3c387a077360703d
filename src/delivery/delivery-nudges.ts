import pg from 'pg';
import type { Logger } from 'pino';
import type { Database } from '../store/database.js';
import { DELIVERIES_CHANNEL, type Outbox } from './outbox.js';

const RECONNECT_MS = 1000;

/**
 * Wakes the worker when deliveries were committed, so a new row is tried within milliseconds
 * instead of at the next poll. SQLite: the outbox calls back in-process (one process owns the
 * file). PostgreSQL: the outbox NOTIFYs in the enqueueing transaction, which PostgreSQL delivers
 * at commit to every listening server; each worker keeps one connection that LISTENs, and
 * reconnects when it drops. Nudges are only a shortcut: the worker also polls, so a lost
 * notification delays a delivery, never loses it.
 */
export class DeliveryNudges {
  private client: pg.Client | null = null;
  private stopped = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  private readonly database: Database;
  private readonly outbox: Outbox;
  private readonly listenUrl: string | undefined;
  private readonly log: Logger;

  constructor(options: {
    database: Database;
    outbox: Outbox;
    /** The PostgreSQL URL to LISTEN on (the pool's connections cannot be borrowed for good). */
    listenUrl: string | undefined;
    log: Logger;
  }) {
    this.database = options.database;
    this.outbox = options.outbox;
    this.listenUrl = options.listenUrl;
    this.log = options.log;
  }

  /** True when commits will wake the worker; otherwise it must poll often. */
  get available(): boolean {
    return this.database.dialect === 'sqlite' || Boolean(this.listenUrl);
  }

  async start(onNudge: () => void): Promise<void> {
    this.stopped = false;
    if (this.database.dialect === 'sqlite') {
      this.unsubscribe = this.outbox.onEnqueue(onNudge);
      return;
    }
    if (this.listenUrl) await this.listen(onNudge);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async listen(onNudge: () => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.listenUrl });
    const retry = (error?: Error) => {
      if (this.stopped || this.client !== client) return;
      this.client = null;
      this.log.warn({ err: error }, 'delivery notifications lost their connection; polling until it is back');
      client.end().catch(() => {});
      this.reconnectTimer = setTimeout(() => void this.listen(onNudge), RECONNECT_MS);
    };
    client.on('notification', () => {
      if (!this.stopped) onNudge();
    });
    client.on('error', retry);
    client.on('end', () => retry());
    this.client = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${DELIVERIES_CHANNEL}`);
      // Rows committed while we were not listening: look once.
      onNudge();
    } catch (error) {
      retry(error as Error);
    }
  }
}
