import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { BulkWriter, type Column } from '../store/bulk-writer.js';
import type { Database, Tx } from '../store/database.js';

export type Channel = 'webhook' | 'email' | 'sms' | 'messenger' | 'messenger2';

/** One message to one target, written by whatever caused it, in its own transaction. */
export interface OutgoingMessage {
  accountId: number;
  eventRuleId: number | null;
  channel: Channel;
  /** URL, e-mail address, phone number or messenger user id. */
  target: string;
  /** The JSON body of a webhook; for the other channels, what the message says. */
  payload: unknown;
}

const COLUMNS: Column[] = [
  { name: 'account_id', pgType: 'bigint' },
  { name: 'event_rule_id', pgType: 'bigint' },
  { name: 'channel', pgType: 'text' },
  { name: 'target', pgType: 'text' },
  { name: 'message_id', pgType: 'text' },
  { name: 'payload', pgType: 'text' },
  { name: 'status', pgType: 'text' },
  { name: 'next_attempt_at', pgType: 'bigint' },
  { name: 'created_at', pgType: 'bigint' },
];

/** The PostgreSQL channel a commit with new deliveries notifies (delivery-nudges.ts listens). */
export const DELIVERIES_CHANNEL = 'lokator_deliveries';

/**
 * The durable outbox (CONTRACT §4): a message is a row written in the same transaction as the
 * change that caused it, so it exists exactly when the change does; the delivery worker sends it.
 */
export class Outbox {
  private readonly bulk: BulkWriter;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly database: Database,
    private readonly clock: () => number = Date.now,
  ) {
    this.bulk = new BulkWriter(database);
  }

  async enqueue(tx: Tx, messages: OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const now = this.clock();
    const rows = messages.map((m) => [
      m.accountId, m.eventRuleId, m.channel, m.target, newMessageId(), JSON.stringify(m.payload), 'pending', now, now,
    ]);
    await this.bulk.upsert(tx, 'deliveries', COLUMNS, [], [], rows);
    await this.nudge(tx);
  }

  /** Called when new deliveries may be waiting (the worker sends them without waiting for its poll); returns the unsubscribe. */
  onEnqueue(listener: () => void): () => void {
    this.listeners.push(listener);
    return () => {
      const index = this.listeners.indexOf(listener);
      if (index >= 0) this.listeners.splice(index, 1);
    };
  }

  /**
   * Tells the workers, once the rows are visible. PostgreSQL delivers a NOTIFY at commit, to every
   * server. SQLite has one connection: whatever the listener queries waits for this transaction
   * to end, so a call now sees the commit.
   */
  private async nudge(tx: Tx): Promise<void> {
    if (this.database.dialect === 'postgres') {
      await sql`SELECT pg_notify(${DELIVERIES_CHANNEL}, '')`.execute(tx);
      return;
    }
    for (const listener of this.listeners) listener();
  }
}

/** `msg_` and 24 random bytes: the Standard Webhooks id, unique without coordination between servers. */
export function newMessageId(): string {
  return `msg_${randomBytes(24).toString('base64url')}`;
}
