/** The face of signals: event rules, and what changes and fixes fire through them (see .dependency-cruiser.mjs). */
import type { AlertWriter } from '../alerts/alerts.js';
import type { OutboxWriter } from '../delivery/delivery.js';
import type { EmployeeDirectory } from '../employees/employees.js';
import type { ChangeRecorder } from '../events/events.js';
import type { ZoneLookup } from '../geozones/geozones.js';
import type { Routes } from '../http/route-types.js';
import type { LatestFixes, PipelineSignals } from '../positioning/positioning.js';
import type { AuditRecorder } from '../audit/audit.js';
import type { Database } from '../store/database.js';
import type { TaskReader } from '../tasks/tasks.js';
import { ArrivalEstimator, type Logger } from './arrival-estimator.js';
import { ChangeEvents } from './change-events.js';
import { eventRuleRoutes } from './event-rule-routes.js';
import { EventRuleService } from './event-rule-service.js';
import { OsrmRouter } from './osrm-router.js';
import { SignalDetection } from './signal-detection.js';
import { SignalDispatcher } from './signal-dispatcher.js';
import { allocateSignalIds } from './signal-ids.js';
import { TaskArrivals } from './task-arrivals.js';

/**
 * The change events of tasks and employees (interface 6.4, 6.5), written to the outbox for the
 * rules that carry them. Employees and tasks take it before signals is composed (which needs them).
 */
export function createChangeEvents({ outbox, alerts, clock }: { outbox: OutboxWriter; alerts: AlertWriter; clock?: () => number }): ChangeRecorder {
  return new ChangeEvents(new SignalDispatcher(outbox, alerts, clock));
}

/** ROUTER_URL and ROUTER_TIMEOUT_MS: an OSRM-compatible router for estimated arrival. */
export interface RouterSettings {
  url: string;
  timeoutMs: number;
  log?: Logger;
}

export interface SignalsDependencies {
  database: Database;
  clock?: () => number;
  outbox: OutboxWriter;
  /** Workspace alerts, written with the outbox's messages. */
  alerts: AlertWriter;
  /** Rules name living employees; signals carry their external ids. */
  employees: Pick<EmployeeDirectory, 'identitiesOf' | 'livingIds'>;
  /** The zones of zone entry and exit signals. */
  zones: ZoneLookup;
  /** WEBHOOK_ALLOW_PRIVATE: a rule's URL may be plain http. */
  allowPrivateAddresses: boolean;
  /** Travel times for estimated arrival; straight lines without. */
  router?: RouterSettings | null;
  /** Where rule changes are logged. */
  audit?: AuditRecorder;
}

export interface Signals {
  /** What a batch of fixes fires, in its transaction (positioning's pipeline calls it). */
  pipeline: PipelineSignals;
  /** Estimated arrival of tasks' assignees, for the workspace's map: the estimator of signal 24. */
  taskArrivals(sources: { tasks: TaskReader; fixes: LatestFixes }): Pick<TaskArrivals, 'estimate'>;
  /** Resolves when no request to the router is under way (tests, shutdown). */
  routerIdle(): Promise<void>;
  /** Under `/v6/api`: the event rules. */
  routes: Routes;
}

export function createSignals({ database, clock = Date.now, outbox, alerts, employees, zones, allowPrivateAddresses, router = null, audit }: SignalsDependencies): Signals {
  const estimator = new ArrivalEstimator(router ? new OsrmRouter(router.url, router.timeoutMs) : null, router?.log ?? null);
  const dispatcher = new SignalDispatcher(outbox, alerts, clock);
  return {
    pipeline: new SignalDetection({ zones, dispatcher, estimator, signalIds: allocateSignalIds, employees }),
    taskArrivals: ({ tasks, fixes }) => new TaskArrivals(tasks, fixes, estimator),
    routerIdle: () => estimator.idle(),
    routes: eventRuleRoutes(new EventRuleService({ database, employees, allowPrivateAddresses, clock, audit })),
  };
}

/** What each kind of rule's message says in e-mails, SMS and messengers (the delivery module's senders write them). */
export { eventLines } from './signal-message.js';

/** What an alert says happened, in words: the messages' headline of its kind (the alerts module shows it). */
export { alertHeadline } from './signal-alerts.js';
