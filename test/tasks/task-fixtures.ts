import assert from 'node:assert/strict';
import type { Client, Response, TestServer } from '../helpers/server.js';

export const TASKS = '/v6/api/taskManagement/tasks';
export const RULES = '/v6/api/eventManagement/events';
export const MOBILE_STATUS = (taskID: number | string) => `/mobile/v1/tasks/${taskID}/status`;

/** The employee's phone: `POST /mobile/v1/tasks/{taskID}/status` with `Authorization: Device <key>`. */
export function setStatus(api: Client, deviceKey: string, taskID: number | string, body: unknown): Promise<Response> {
  return api.withToken(null).post(MOBILE_STATUS(taskID), body, { authorization: `Device ${deviceKey}` });
}

export interface OutboxRow {
  id: number;
  eventRuleId: number | null;
  channel: string;
  target: string;
  messageId: string;
  payload: any;
}

/** The outbox rows written after `afterId`, oldest first, with their payloads parsed. */
export async function outboxSince(server: TestServer, afterId: number): Promise<OutboxRow[]> {
  const rows = await server.database.db
    .selectFrom('deliveries')
    .select(['id', 'event_rule_id', 'channel', 'target', 'message_id', 'payload'])
    .where('account_id', '=', server.account.id)
    .where('id', '>', afterId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, eventRuleId: r.event_rule_id, channel: r.channel, target: r.target, messageId: r.message_id, payload: JSON.parse(r.payload) }));
}

/** The id of the newest outbox row of any account (0 when empty): a mark to read what comes after. */
export async function outboxMark(server: TestServer): Promise<number> {
  const row = await server.database.db.selectFrom('deliveries').select((eb) => eb.fn.max('id').as('max')).executeTakeFirst();
  return Number(row?.max ?? 0);
}

/** Creates an event rule through the API and returns its id. */
export async function createRule(api: Client, body: Record<string, unknown>): Promise<number> {
  const r = await api.post(RULES, body);
  if (r.status !== 201) throw new Error(`creating a rule failed: ${r.status} ${r.text}`);
  return r.body.eventID as number;
}

/** Webhook rows only (a rule may add e-mail and other channels). */
export function webhooks(rows: OutboxRow[]): OutboxRow[] {
  return rows.filter((r) => r.channel === 'webhook');
}

/** The workspace user behind the test account's API token: the `userID` of the changes it makes. */
export async function userIdOf(server: TestServer): Promise<number> {
  const row = await server.database.db.selectFrom('users').select('id').where('account_id', '=', server.account.id).executeTakeFirstOrThrow();
  return row.id;
}

export interface ExpectedMetadata {
  signalTypeID: 1 | 2 | 3;
  signalEntityTypeID: 1 | 2;
  entityID: number;
  initiator: { userID: number } | { subscriberID: number } | { agentID: number };
  signalDate: string;
  actualSignalDate: string;
}

/**
 * signalMetadataInfo of interface 2.10, complete: exactly these keys, exactly one initiator, a
 * positive integer signalID and signalResultID, dates in UTC with Z.
 */
export function assertMetadata(meta: any, expected: ExpectedMetadata): void {
  const initiatorKey = Object.keys(expected.initiator)[0]!;
  assert.deepEqual(
    Object.keys(meta).sort(),
    ['signalID', 'signalDate', 'signalTypeID', 'signalResultID', initiatorKey, 'signalEntityTypeID', 'entityID', 'actualSignalDate'].sort(),
    'the fields of 2.10 with one initiator',
  );
  assert.ok(Number.isSafeInteger(meta.signalID) && meta.signalID > 0, 'signalID');
  assert.ok(Number.isSafeInteger(meta.signalResultID) && meta.signalResultID > 0, 'signalResultID');
  const { initiator, ...rest } = expected;
  assert.deepEqual(
    { signalTypeID: meta.signalTypeID, signalEntityTypeID: meta.signalEntityTypeID, entityID: meta.entityID, signalDate: meta.signalDate, actualSignalDate: meta.actualSignalDate },
    rest,
  );
  assert.deepEqual({ [initiatorKey]: meta[initiatorKey] }, initiator, 'the initiator');
  assert.match(meta.signalDate, /Z$/);
  assert.match(meta.actualSignalDate, /Z$/);
}

/**
 * The webhook rows of named rules, read in turns: `drain()` answers the rows written since the
 * previous turn, by the name `rules` gives their rule (`rule <id>` for a rule it does not name).
 * `begin()` sets the first turn's start at the newest row there is.
 */
export function ruleOutbox(server: () => TestServer, rules: Record<string, number>) {
  let mark = 0;
  return {
    /** The id the next `drain()` reads after. */
    get mark(): number {
      return mark;
    },
    async begin(): Promise<void> {
      mark = await outboxMark(server());
    },
    async drain(): Promise<Map<string, OutboxRow[]>> {
      const rows = await outboxSince(server(), mark);
      if (rows.length) mark = rows.at(-1)!.id;
      const byName = new Map<string, OutboxRow[]>();
      for (const row of webhooks(rows)) {
        const name = Object.entries(rules).find(([, id]) => id === row.eventRuleId)?.[0] ?? `rule ${row.eventRuleId}`;
        byName.set(name, [...(byName.get(name) ?? []), row]);
      }
      return byName;
    },
  };
}
