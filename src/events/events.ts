import { isDeepStrictEqual } from 'node:util';
import type { Account, Principal } from '../accounts/accounts.js';
import type { Tx } from '../store/database.js';

/**
 * The change events of interface 6.4 (tasks) and 6.5 (employees), as the modules that make the
 * changes describe them. Employees and tasks record their changes through a `ChangeRecorder`;
 * signals implements it (rules, signal ids, the outbox), so neither needs to know the other.
 */

/**
 * Who made a change (interface 2.10): a user (API token or workspace), the employee through the
 * phone, or the service itself; `tokenID` for an API token whose maker was removed.
 */
export type Initiator = { userID: number } | { tokenID: number } | { subscriberID: number } | { agentID: number };

/** The initiator of a change made through the API or the workspace: the user, or the token that no user made. */
export function initiatorOf(principal: Principal): Initiator {
  if (principal.userID !== null) return { userID: principal.userID };
  return { tokenID: principal.tokenID ?? 0 };
}

/**
 * `agentID` of the service's presence agent, the initiator of every `isOnline` flip (CONTRACT §4:
 * the service itself). The only automatic agent so far.
 */
export const PRESENCE_AGENT_ID = 1;

/** One change of one object, as the object is carried in the events (interface 2.8 or 2.9). */
export type Change<T> = { type: 'add'; after: T } | { type: 'edit'; before: T; after: T } | { type: 'delete'; before: T };

export interface EntityChange<T extends object> {
  change: Change<T>;
  entityId: number;
  /** The employees the change concerns: a rule limited to employees fires only when it names one of them. */
  subscriberIds: (number | null)[];
  initiator: Initiator;
  /** signalDate: when it happened. */
  atMs: number;
  /** actualSignalDate: when the service recorded it (later than atMs only for what is noticed afterwards). */
  firedMs: number;
}

export type Feed = 'task' | 'employee';

/** Writes the events of these changes in the caller's transaction, so an event exists exactly when its change does. */
export interface ChangeRecorder {
  record<T extends object>(tx: Tx, account: Account, feed: Feed, changes: EntityChange<T>[]): Promise<void>;
}

/**
 * The previous values of the fields that differ (compared deeply), and only those: the
 * `changedValues` of interface 6.4 and 6.5, and what a task's history keeps.
 */
export function changedValues(before: object, after: object): Record<string, unknown> {
  const previous = before as Record<string, unknown>;
  const next = after as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(previous), ...Object.keys(next)])) {
    if (!isDeepStrictEqual(previous[key], next[key])) changed[key] = previous[key] ?? null;
  }
  return changed;
}
