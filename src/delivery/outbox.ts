import { randomBytes } from 'node:crypto';
import { BulkWriter, bulkInsert } from '../store/bulk-writer.js';
import type { Database, Tx } from '../store/database.js';
import type { DeliveriesTable } from '../store/schema.js';
import { notifyWorkers } from './delivery-log-store.js';

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

/** A new outbox row. */
type DeliveryInsert = Pick<DeliveriesTable, 'account_id' | 'event_rule_id' | 'channel' | 'target' | 'message_id' | 'payload' | 'status' | 'next_attempt_at' | 'created_at'>;

const INSERT_DELIVERIES = bulkInsert<'deliveries', DeliveryInsert>({
  table: 'deliveries',
  columns: {
    account_id: 'bigint',
    event_rule_id: 'bigint',
    channel: 'text',
    target: 'text',
    message_id: 'text',
    payload: 'text',
    status: 'text',
    next_attempt_at: 'bigint',
    created_at: 'bigint',
  },
});

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
    const rows = messages.map((m): DeliveryInsert => ({
      account_id: m.accountId,
      event_rule_id: m.eventRuleId,
      channel: m.channel,
      target: m.target,
      message_id: newMessageId(),
      payload: JSON.stringify(m.payload),
      status: 'pending',
      next_attempt_at: now,
      created_at: now,
    }));
    await this.bulk.insert(tx, INSERT_DELIVERIES, rows);
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
      await notifyWorkers(tx, DELIVERIES_CHANNEL);
      return;
    }
    for (const listener of this.listeners) listener();
  }
}

/** `msg_` and 24 random bytes: the Standard Webhooks id, unique without coordination between servers. */
export function newMessageId(): string {
  return `msg_${randomBytes(24).toString('base64url')}`;
}
