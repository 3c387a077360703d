import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { createAccounts } from './accounts/accounts.js';
import { createAlerts, createAlertWriter } from './alerts/alerts.js';
import { createAudit, runInRequestContext } from './audit/audit.js';
import type { Config } from './config.js';
import { createCustomFields } from './customfields/customfields.js';
import { createDelivery, defaultDeliverySettings, type AttachmentSource, type DeliverySettings } from './delivery/delivery.js';
import { createDevices, deviceConnections, type DevicePortSetting } from './devices/devices.js';
import { createEmployees } from './employees/employees.js';
import { createFiles, type FileSettings } from './files/files.js';
import { createForms } from './forms/forms.js';
import { createGeozones } from './geozones/geozones.js';
import { createMetrics } from './http/observability.js';
import { mobileRoutes } from './http/mobile-scope.js';
import { apiRoutes, createServer } from './http/server.js';
import { createPositioning } from './positioning/positioning.js';
import { createReports } from './reports/reports.js';
import { createRetention, defaultRetentionSettings, type RetentionSettings } from './retention/retention.js';
import { alertHeadline, createChangeEvents, createSignals, eventLines, type RouterSettings } from './signals/signals.js';
import type { Database } from './store/database.js';
import { createTasks, type FormFileCheck } from './tasks/tasks.js';
import { createWorkspace, type WorkspaceConfig } from './workspace/workspace.js';

export type AppConfig = Pick<Config, 'LOKATOR_ADMIN_TOKEN' | 'INGEST_BODY_LIMIT_BYTES'> &
  Partial<Pick<Config, 'REQUEST_TIMEOUT' | 'MAX_REQUESTS_IN_FLIGHT' | 'TRUST_PROXY'>> &
  /** The device listeners' ports (main.ts starts them), for the connection settings the workspace shows. */
  Partial<Pick<Config, DevicePortSetting>> &
  WorkspaceConfig;

/** Every module, as its face offers it to the others, to main.ts (which starts the workers) and to tests. */
export type Services = ReturnType<typeof createServices>;

export interface ServiceOptions {
  /** WEBHOOK_ALLOW_PRIVATE: outgoing calls may go to plain http and private addresses. */
  allowPrivateAddresses?: boolean;
  /** How deliveries are sent (WEBHOOK_*, SMTP_*, gateways); WEBHOOK_ALLOW_PRIVATE comes from allowPrivateAddresses. */
  delivery?: Partial<DeliverySettings>;
  /** ONLINE_TIMEOUT: an employee's isOnline turns false after this long without fixes. */
  onlineTimeoutMs?: number;
  /** ROUTER_URL and ROUTER_TIMEOUT_MS: an OSRM-compatible router for estimated arrival; straight lines without. */
  router?: RouterSettings | null;
  /** GEOCODER_URL and GEOCODER_TIMEOUT_MS: a reverse geocoder for track addresses; zone and map-object names without. */
  geocoder?: { url: string; timeoutMs: number } | null;
  /** SIGNAL_MAX_AGE: fixes dated longer than this before their arrival fire no signal. */
  signalMaxAgeMs?: number;
  /** RETENTION_DAYS, DELIVERY_RETENTION_DAYS, and the job's batch size and period. */
  retention?: Partial<RetentionSettings>;
  /** The file store (DATA_DIR/files or FILES_S3_*), FILES_MAX_BYTES and FILES_UPLOADS_PER_MINUTE. */
  files?: Partial<FileSettings>;
}

/** Every module, composed in one place: each from the faces of the modules it needs. */
export function createServices(database: Database, clock: () => number = Date.now, options: ServiceOptions = {}) {
  const allowPrivateAddresses = options.allowPrivateAddresses ?? false;
  const retentionSettings = { ...defaultRetentionSettings, ...options.retention };
  const metrics = createMetrics();
  const audit = createAudit({ database, clock });
  // The scopes of users and tokens name employee groups (employees are composed below).
  const groups = (accountId: number, ids: readonly number[]) => employees.existingGroupIds(accountId, ids);
  const accounts = createAccounts({ database, clock, serverRetentionDays: retentionSettings.serverRetentionDays, groups, audit });
  const settings = { ...defaultDeliverySettings, ...options.delivery, allowPrivate: allowPrivateAddresses };
  // E-mail attachments are made when the e-mail is sent, by reports (composed below: they write to the outbox).
  const attachments: AttachmentSource = (accountId, spec) => reports.attachments(accountId, spec);
  const delivery = createDelivery({ database, clock, accounts, registry: metrics.registry, settings, attachments, eventLines, audit });
  const { outbox } = delivery;
  const alertWriter = createAlertWriter(clock);
  const events = createChangeEvents({ outbox, alerts: alertWriter, clock });
  const templates = createCustomFields({ database, clock });
  const employees = createEmployees({ database, clock, accounts, events, templates, onlineTimeoutMs: options.onlineTimeoutMs, audit });
  // A form's picture fields name files of their task (files, composed below, read tasks).
  const formFiles: FormFileCheck = (executor, accountId, taskID, ids) => files.idsOfTask(executor, accountId, taskID, ids);
  const tasks = createTasks({ database, clock, employees, events, templates, formFiles, audit });
  const files = createFiles({ database, clock, tasks, settings: options.files });
  const forms = createForms({ database, tasks, templates, files });
  const geozones = createGeozones({ database, clock, templates, audit });
  const alerts = createAlerts({ database, clock, headline: alertHeadline, employees, loginsOf: accounts.loginsOf });
  const signals = createSignals({ database, clock, outbox, alerts: alertWriter, employees, zones: geozones.lookup, allowPrivateAddresses, router: options.router, audit });
  const { signalMaxAgeMs, geocoder } = options;
  const positioning = createPositioning({ database, clock, metrics, accounts, employees, geozones, signals: signals.pipeline, signalMaxAgeMs, geocoder, retentionBatchRows: retentionSettings.batchRows });
  const reports = createReports({ database, clock, accounts, employees, data: positioning.reportData, outbox });
  const retention = createRetention({ database, clock, accounts, sessions: accounts.sessions, positions: positioning.retention, files, audit, settings: retentionSettings });
  const devices = createDevices({ database, clock });
  const workspace = createWorkspace({ sessions: accounts.sessions, authenticate: accounts.authenticateWorkspaceRequest, fixes: positioning, alerts: alerts.feed, arrivals: signals.taskArrivals({ tasks, fixes: positioning }), places: positioning.places });
  return { metrics, audit, accounts, alerts, delivery, customFields: templates, employees, tasks, files, forms, geozones, signals, positioning, reports, retention, devices, workspace };
}

export interface AppOptions {
  database: Database;
  services: Services;
  config: AppConfig;
  logger?: FastifyBaseLogger | boolean;
  clock?: () => number;
  /** Why `/ready` answers 503 besides the database, or null (see registerObservability); default: never. */
  notReady?: () => string | null;
}

/** The API server: the v6 routes, the operator routes, the workspace, docs and health, with the conventions of CONTRACT §1. */
export async function buildApp({ database, services, config, logger = false, clock = Date.now, notReady }: AppOptions): Promise<FastifyInstance> {
  const { accounts, positioning, tasks, workspace } = services;
  const app = await createServer({
    database,
    metrics: services.metrics,
    logger,
    requestTimeoutMs: config.REQUEST_TIMEOUT,
    trustProxy: config.TRUST_PROXY,
    notReady,
    onRoute: accounts.routePermissions.declare,
  });
  // Each request runs in its own context: the audit log takes its actor and address from there.
  app.addHook('onRequest', (request, _reply, done) => runInRequestContext({ address: request.ip, actor: () => accounts.actorOf(request) }, done));
  if (config.LOKATOR_ADMIN_TOKEN) await app.register(accounts.adminRoutes(config.LOKATOR_ADMIN_TOKEN));
  const { employees, geozones, signals, delivery, devices, customFields, files, forms, reports } = services;
  const modules = [employees, geozones, signals, services.alerts, delivery, devices, tasks, customFields, files, forms, reports, accounts, services.audit];
  const routes = [positioning.routes({ ingestBodyLimitBytes: config.INGEST_BODY_LIMIT_BYTES }), ...modules.map((module) => module.routes)];
  await app.register(apiRoutes({ database, clock, authenticate: accounts.authenticateRequest, maxInFlightPerUser: config.MAX_REQUESTS_IN_FLIGHT, routes }), { prefix: '/v6/api' });
  // The employee's phone and app authenticate with the device key, not a bearer token; each employee's idempotency keys are their own.
  const idempotencyScope = (request: FastifyRequest) => ({ accountId: request.device.account.id, prefix: `device:${request.device.subscriberID}:` });
  const authenticate = employees.authenticateDeviceRequest;
  await app.register(mobileRoutes({ database, clock, authenticate, idempotencyScope, routes: [tasks.mobileRoutes, files.mobileRoutes, positioning.mobileRoutes] }));
  await app.register(workspace.routes(config, deviceConnections(config)));
  app.addHook('onClose', async () => workspace.live.close());
  return app;
}
