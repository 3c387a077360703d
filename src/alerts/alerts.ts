/** The face of alerts: what the event rules fired, for the workspace and the API (see .dependency-cruiser.mjs). */
import type { Routes } from '../http/route-types.js';
import type { Database, Tx } from '../store/database.js';
import { alertRoutes } from './alert-routes.js';
import { AlertService, type AlertHeadline, type AlertPeople } from './alert-service.js';
import { alertState, insertAlerts, type NewAlert } from './alert-store.js';

export type { AlertHeadline } from './alert-service.js';
export type { NewAlert } from './alert-store.js';

/** Writes alerts in the transaction of what fired them (the signals module calls it). */
export interface AlertWriter {
  record(tx: Tx, accountId: number, alerts: readonly NewAlert[]): Promise<void>;
}

/** What the workspace's live feed watches of an account's alerts. */
export interface AlertState {
  /** The newest alert's id; 0 without any. */
  latestAlertID: number;
  /** Unhandled alerts, counted up to UNHANDLED_CAP. */
  unhandled: number;
}

export interface AlertFeed {
  stateOf(accountId: number): Promise<AlertState>;
}

/** The unhandled count stops here ("999+"): counting further would cost every poll more and tell nobody more. */
export const UNHANDLED_CAP = 1000;

export interface AlertsDependencies extends AlertPeople {
  database: Database;
  clock?: () => number;
  /** What happened, in words (the signals module's messages). */
  headline: AlertHeadline;
}

export interface Alerts {
  feed: AlertFeed;
  /** Under `/v6/api`: the alerts list and their handling. */
  routes: Routes;
}

/**
 * The writer of alerts, made before the modules whose changes it records (employees and tasks
 * take the change events, which write alerts).
 */
export function createAlertWriter(clock: () => number = Date.now): AlertWriter {
  return { record: (tx, accountId, alerts) => (alerts.length === 0 ? Promise.resolve() : insertAlerts(tx, accountId, alerts, clock())) };
}

export function createAlerts({ database, clock = Date.now, headline, employees, loginsOf }: AlertsDependencies): Alerts {
  return {
    feed: { stateOf: (accountId) => alertState(database.db, accountId, UNHANDLED_CAP) },
    routes: alertRoutes(new AlertService(database, headline, { employees, loginsOf }, clock)),
  };
}
