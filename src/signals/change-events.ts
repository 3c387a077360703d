import type { Account } from '../accounts/accounts.js';
import { formatUtc } from '../http/datetime.js';
import type { StoredRule } from './event-rule-schema.js';
import { activeRules } from './event-rule-store.js';
import type { ChangeFeedDefinition } from './kinds/rule-kind.js';
import type { Occurrence, SignalDispatcher } from './signal-dispatcher.js';
import type { Tx } from '../store/database.js';
import { changedValues, type ChangeRecorder, type EntityChange, type Feed } from '../events/events.js';
import { CHANGE_FEEDS } from './kinds/rule-kinds.js';
import { allocateSignalIds } from './signal-ids.js';

/** The rule kind of each feed of the events module (kinds/rule-kinds.ts). */
const feeds = new Map(CHANGE_FEEDS.map((definition) => [definition.feed, definition]));

const signalTypeIds = { add: 1, edit: 2, delete: 3 } as const;

/**
 * The change events of interface 6.4 (tasks) and 6.5 (employees), written through the signal
 * dispatcher in the caller's transaction, so an event exists exactly when its change does.
 * `signalResultID` is the rule that fired (the "event" of interface 6.1, its `eventID`); `signalID`
 * is one per change, the same in every rule's copy.
 */
export class ChangeEvents implements ChangeRecorder {
  constructor(private readonly signals: SignalDispatcher) {}

  async record<T extends object>(tx: Tx, account: Account, feed: Feed, changes: EntityChange<T>[]): Promise<void> {
    const definition = feeds.get(feed);
    if (!definition) return;
    const { kind } = definition;
    // An edit that changes none of the carried fields is no change to tell (a PATCH with the same values).
    const real = changes.filter((c) => c.change.type !== 'edit' || Object.keys(changedValues(c.change.before, c.change.after)).length > 0);
    if (real.length === 0) return;
    // Signal ids are taken only for changes some rule will carry; most changes have none.
    const rulesAt = new Map<number, StoredRule[]>();
    const carried: EntityChange<T>[] = [];
    for (const change of real) {
      let rules = rulesAt.get(change.atMs);
      if (!rules) {
        rules = await activeRules(tx, account, kind, null, change.atMs);
        rulesAt.set(change.atMs, rules);
      }
      if (rules.some((rule) => concerns(rule, change.subscriberIds))) carried.push(change);
    }
    if (carried.length === 0) return;
    const ids = await allocateSignalIds(tx, carried.length);
    const occurrences = carried.map((change, i): Occurrence => {
      const signalID = ids[i]!;
      return {
        // Null: every rule of the account in its schedule; the rule's own employees are checked here,
        // since a task concerns its assignee before and after the change.
        subscriberId: null,
        atMs: change.atMs,
        bodyFor: (rule) => (concerns(rule, change.subscriberIds) ? element(definition, change, signalID, rule.id) : null),
      };
    });
    await this.signals.dispatch(tx, account, kind, occurrences);
  }
}

/** A rule for all employees, or one naming an employee the change concerns. */
function concerns(rule: StoredRule, subscriberIds: (number | null)[]): boolean {
  return rule.subscriberIDs.length === 0 || subscriberIds.some((id) => id !== null && rule.subscriberIDs.includes(id));
}

/** The element of interface 6.4 / 6.5 for one rule, with the fields in the interface's order. */
function element<T extends object>(feed: ChangeFeedDefinition<string>, entry: EntityChange<T>, signalID: number, eventID: number): Record<string, unknown> {
  const { change } = entry;
  const signalMetadataInfo = {
    signalID,
    signalDate: formatUtc(entry.atMs),
    signalTypeID: signalTypeIds[change.type],
    signalResultID: eventID,
    ...entry.initiator,
    signalEntityTypeID: feed.entityTypeId,
    entityID: entry.entityId,
    actualSignalDate: formatUtc(entry.firedMs),
  };
  const key = feed.entityKey;
  switch (change.type) {
    case 'add':
      return { [key]: change.after, signalMetadataInfo };
    case 'edit':
      return feed.feed === 'task'
        ? { [key]: change.after, signalMetadataInfo, changedValues: changedValues(change.before, change.after) }
        : { [key]: change.after, changedValues: changedValues(change.before, change.after), signalMetadataInfo };
    case 'delete':
      return { signalMetadataInfo };
  }
}
