import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AccountService } from './accounts/account-service.js';
import { adminRoutes } from './accounts/admin-routes.js';
import { accountRoutes } from './accounts/account-routes.js';
import { retentionRoutes } from './accounts/retention-routes.js';
import { settings, type Config } from './config.js';
import { ChangeEvents } from './signals/change-events.js';
import { allocateSignalIds } from './signals/signal-ids.js';
import { customFieldRoutes } from './customfields/custom-field-routes.js';
import { CustomFieldService } from './customfields/custom-field-service.js';
import { employeeRoutes } from './employees/employee-routes.js';
import { EmployeeService } from './employees/employee-service.js';
import { subscriberGroupRoutes } from './employees/subscriber-group-routes.js';
import { formRoutes } from './forms/form-routes.js';
import { FormService } from './forms/form-service.js';
import { createGeozones, geozoneRoutes, type Geozones } from './geozones/geozones.js';
import fastifyCookie from '@fastify/cookie';
import { apiAuth } from './accounts/api-auth.js';
import { applyConventions, clientErrorHandler, frameworkError, sendError } from './http/conventions.js';
import { registerIdempotency } from './http/idempotency.js';
import { createMetrics, registerObservability, type Metrics } from './http/observability.js';
import { registerOpenApi } from './http/openapi.js';
import { registerReplicaReads } from './http/replica-reads.js';
import { defaultRequestLimits, InFlightLimiter, serverWithDeadline } from './http/request-limits.js';
import { validatorCompiler } from './http/validation.js';
import { locationRoutes } from './positioning/location-routes.js';
import { MobileLocations } from './positioning/mobile-locations.js';
import { mobilePositioningRoutes } from './positioning/mobile-positioning-routes.js';
import { createDelivery, defaultDeliverySettings, type DeliveryServices, type DeliverySettings } from './delivery/delivery.js';
import { deliveryRoutes } from './delivery/delivery-routes.js';
import { deviceConnections, EgtsRetranslators, retranslatorRoutes, type DevicePortSetting } from './devices/devices.js';
import { Outbox } from './delivery/outbox.js';
import { AddressResolver } from './positioning/address-resolver.js';
import { eventRuleRoutes } from './signals/event-rule-routes.js';
import { EventRuleService } from './signals/event-rule-service.js';
import { ArrivalEstimator, type Logger } from './signals/arrival-estimator.js';
import { TaskArrivals } from './signals/task-arrivals.js';
import { OsrmRouter } from './signals/osrm-router.js';
import { SignalDispatcher } from './signals/signal-dispatcher.js';
import { SignalDetection } from './signals/signal-detection.js';
import { eventLines } from './signals/signal-message.js';
import { LocationService } from './positioning/location-service.js';
import { ReportData } from './positioning/positioning.js';
import { createReports, reportRoutes, type Reports } from './reports/reports.js';
import { StatisticsService } from './positioning/statistics-service.js';
import { subscriberRequestRoutes } from './positioning/subscriber-request-routes.js';
import { SubscriberRequestService } from './positioning/subscriber-request-service.js';
import { gpsFilterRoutes } from './positioning/gps-filter-routes.js';
import { trackRoutes } from './positioning/track-routes.js';
import { TrackService } from './positioning/track-service.js';
import { VehicleEventService } from './positioning/vehicle-event-service.js';
import { PositionRetention } from './positioning/position-retention.js';
import { defaultRetentionSettings, RetentionJob, type RetentionSettings } from './retention/retention.js';
import type { Database } from './store/database.js';
import { mobileTaskRoutes } from './tasks/mobile-task-routes.js';
import { taskRoutes } from './tasks/task-routes.js';
import { TaskService } from './tasks/task-service.js';
import { version } from './version.js';
import { SessionService } from './accounts/session-service.js';
import { LiveFeed } from './workspace/live-feed.js';
import { builtWorkspaceDir, workspaceStaticFiles } from './workspace/static-files.js';
import { docsSite } from './http/docs-site.js';
import { arrivalRoutes } from './workspace/arrival-routes.js';
import { workspaceRoutes, type WorkspaceSettings } from './workspace/workspace-routes.js';

export type AppConfig = Pick<Config, 'LOKATOR_ADMIN_TOKEN' | 'INGEST_BODY_LIMIT_BYTES'> &
  Partial<Pick<Config, 'MAP_TILE_URL' | 'MAP_TILE_ATTRIBUTION' | 'REQUEST_TIMEOUT' | 'MAX_REQUESTS_IN_FLIGHT' | 'TRUST_PROXY'>> &
  /** The device listeners' ports (main.ts starts them), for the connection settings the workspace shows. */
  Partial<Pick<Config, DevicePortSetting>> & {
    /** The built workspace (web/dist); found beside the package when not given, not served when absent. */
    workspaceDir?: string | null;
  };

export interface Services {
  accounts: AccountService;
  /** Sign-in and sessions of the workspace's users. */
  sessions: SessionService;
  /** Live positions for the workspace map. */
  live: LiveFeed;
  employees: EmployeeService;
  tasks: TaskService;
  /** Custom-field templates, and the check of what zones, tasks and employees fill. */
  customFields: CustomFieldService;
  forms: FormService;
  /** "Locate now" requests. */
  subscriberRequests: SubscriberRequestService;
  locations: LocationService;
  /** The fixes in the shape of the mobile positioning routes. */
  mobileLocations: MobileLocations;
  tracks: TrackService;
  vehicleEvents: VehicleEventService;
  statistics: StatisticsService;
  /** Reports on screen, in files and by e-mail (issue 17). */
  reports: Reports;
  geozones: Geozones;
  eventRules: EventRuleService;
  outbox: Outbox;
  signals: SignalDispatcher;
  /** Estimated arrival (signal 24): travel times, from ROUTER_URL when set. */
  arrivals: ArrivalEstimator;
  /** The delivery worker (started by main.ts), the deliveries log and the signing secrets. */
  delivery: DeliveryServices;
  /** Removal of old data, and the weekly partitions of the locations (started by main.ts). */
  retention: RetentionJob;
  /** The EGTS retranslators accounts let in (the EGTS listener authenticates them). */
  retranslators: EgtsRetranslators;
  metrics: Metrics;
}

export interface ServiceOptions {
  /** WEBHOOK_ALLOW_PRIVATE: outgoing calls may go to plain http and private addresses. */
  allowPrivateAddresses?: boolean;
  /** How deliveries are sent (WEBHOOK_*, SMTP_*, gateways); WEBHOOK_ALLOW_PRIVATE comes from allowPrivateAddresses. */
  delivery?: Partial<DeliverySettings>;
  /** ONLINE_TIMEOUT: an employee's isOnline turns false after this long without fixes. */
  onlineTimeoutMs?: number;
  /** ROUTER_URL and ROUTER_TIMEOUT_MS: an OSRM-compatible router for estimated arrival; straight lines without. */
  router?: { url: string; timeoutMs: number; log?: Logger } | null;
  /** SIGNAL_MAX_AGE: fixes dated longer than this before their arrival fire no signal. */
  signalMaxAgeMs?: number;
  /** RETENTION_DAYS, DELIVERY_RETENTION_DAYS, and the job's batch size and period. */
  retention?: Partial<RetentionSettings>;
}

/** Every service, composed in one place. */
export function createServices(database: Database, clock: () => number = Date.now, options: ServiceOptions = {}): Services {
  const metrics = createMetrics();
  const accounts = new AccountService(database, clock);
  const outbox = new Outbox(database, clock);
  const signals = new SignalDispatcher(outbox);
  const changeEvents = new ChangeEvents(signals);
  const customFields = new CustomFieldService(database, clock);
  const employees = new EmployeeService(database, accounts, changeEvents, clock, { onlineTimeoutMs: options.onlineTimeoutMs }, customFields);
  const eventRules = new EventRuleService(database, employees, { allowPrivateAddresses: options.allowPrivateAddresses ?? false }, clock);
  const tasks = new TaskService(database, employees, changeEvents, clock, customFields);
  const forms = new FormService(database, tasks, customFields);
  const geozones = createGeozones(database, clock, customFields);
  const addresses = new AddressResolver(geozones);
  const { router } = options;
  const arrivals = new ArrivalEstimator(router ? new OsrmRouter(router.url, router.timeoutMs) : null, router?.log ?? null);
  const signalDetection = new SignalDetection(geozones.lookup, signals, arrivals, allocateSignalIds, employees);
  const locations = new LocationService(database, accounts, employees, metrics, addresses, clock, signalDetection, options.signalMaxAgeMs);
  const tracks = new TrackService(database, addresses, clock);
  const mobileLocations = new MobileLocations(database, locations, addresses);
  const subscriberRequests = new SubscriberRequestService(database, employees, locations, clock);
  const vehicleEvents = new VehicleEventService(database, clock);
  const statistics = new StatisticsService(database, employees, clock);
  const reports = createReports(database, { accounts, employees, data: new ReportData(database, tracks, clock), outbox }, clock);
  const delivery = createDelivery(database, outbox, metrics.registry, {
    ...defaultDeliverySettings,
    ...options.delivery,
    allowPrivate: options.allowPrivateAddresses ?? false,
    attachments: (accountId, spec) => reports.attachments.render(accountId, spec),
    eventLines,
    // Cached as tokens are: a new language reaches messages within PRINCIPAL_CACHE_MS (at once on the server that saved it).
    readers: async (accountId) => {
      const account = await accounts.getCached(accountId);
      return account ? { locale: account.locale, timeZone: account.timeZone } : { locale: 'en', timeZone: 'UTC' };
    },
  }, clock);
  const sessions = new SessionService(database, accounts, clock);
  const live = new LiveFeed(locations);
  const retentionSettings = { ...defaultRetentionSettings, ...options.retention };
  const retention = new RetentionJob(database, accounts, sessions, new PositionRetention(database, retentionSettings.batchRows), retentionSettings, clock);
  const retranslators = new EgtsRetranslators(database, clock);
  return { accounts, sessions, live, employees, tasks, customFields, forms, subscriberRequests, locations, mobileLocations, tracks, vehicleEvents, statistics, reports, geozones, eventRules, outbox, signals, arrivals, delivery, retention, metrics, retranslators };
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

const MANAGEMENT_BODY_LIMIT = 1024 * 1024;

/** The API server: the v6 routes, the operator routes, docs and health, with the conventions of CONTRACT §1. */
export async function buildApp({ database, services, config, logger = false, clock = Date.now, notReady }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(typeof logger === 'boolean' ? { logger } : { loggerInstance: logger }),
    serverFactory: serverWithDeadline(config.REQUEST_TIMEOUT ?? defaultRequestLimits.requestTimeoutMs),
    bodyLimit: MANAGEMENT_BODY_LIMIT,
    // Room for the longest external id (200 characters), percent-encoded as UTF-8.
    routerOptions: { maxParamLength: 4096 },
    frameworkErrors: (error, _request, reply) => sendError(reply, frameworkError(error)),
    clientErrorHandler,
    requestIdHeader: 'x-request-id',
    // request.ip (sign-in throttling, logs) is the client's address only behind a trusted proxy;
    // otherwise X-Forwarded-For is anyone's to write and is ignored.
    trustProxy: config.TRUST_PROXY ?? false,
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  applyConventions(app);

  await app.register(fastifyCookie);
  await registerOpenApi(app, version);
  registerObservability(app, database, services.metrics, notReady);
  if (config.LOKATOR_ADMIN_TOKEN) await app.register(adminRoutes(services.accounts, services.sessions, config.LOKATOR_ADMIN_TOKEN));

  await app.register(
    async (api) => {
      api.addHook('onRequest', apiAuth(services.accounts, services.sessions));
      // After authentication and before the body is read: one user cannot hold the server's memory.
      const inFlight = new InFlightLimiter(config.MAX_REQUESTS_IN_FLIGHT ?? defaultRequestLimits.maxInFlightPerUser);
      api.addHook('onRequest', async (request, reply) => inFlight.enter(`${request.principal.account.id}:${request.principal.userID}`, reply));
      registerIdempotency(api, database, clock);
      registerReplicaReads(api, database);
      await api.register(employeeRoutes(services.employees));
      await api.register(locationRoutes(services.locations, config.INGEST_BODY_LIMIT_BYTES));
      await api.register(trackRoutes(services.tracks, services.vehicleEvents, services.statistics));
      await api.register(geozoneRoutes(services.geozones));
      await api.register(eventRuleRoutes(services.eventRules));
      await api.register(deliveryRoutes(services.delivery.log, services.delivery.secrets));
      await api.register(retranslatorRoutes(services.retranslators));
      await api.register(taskRoutes(services.tasks));
      // What clients of the original service call besides (issue 16).
      await api.register(mobilePositioningRoutes(services.mobileLocations, services.tracks));
      await api.register(subscriberGroupRoutes(services.employees.groups));
      await api.register(subscriberRequestRoutes(services.subscriberRequests));
      await api.register(customFieldRoutes(services.customFields));
      await api.register(formRoutes(services.forms));
      await api.register(reportRoutes(services.reports));
      await api.register(retentionRoutes(services.accounts, services.retention.serverRetentionDays));
      await api.register(accountRoutes(services.accounts));
      await api.register(gpsFilterRoutes(services.accounts));
    },
    { prefix: '/v6/api' },
  );
  // The employee's phone authenticates with its device key, not a bearer token.
  await app.register(mobileTaskRoutes(services.accounts, services.employees, services.tasks));

  const tileUrl = config.MAP_TILE_URL ?? settings.MAP_TILE_URL.default;
  const workspace: WorkspaceSettings = {
    map: { tileUrl: tileUrl === 'none' ? null : tileUrl, attribution: config.MAP_TILE_ATTRIBUTION ?? settings.MAP_TILE_ATTRIBUTION.default },
    devices: deviceConnections(config),
  };
  await app.register(workspaceRoutes(services.sessions, services.live, workspace));
  await app.register(arrivalRoutes(services.sessions, new TaskArrivals(services.tasks, services.locations, services.arrivals)));
  const workspaceDir = config.workspaceDir === undefined ? builtWorkspaceDir() : config.workspaceDir;
  if (workspaceDir) await app.register(workspaceStaticFiles(workspaceDir, workspace.map));
  await app.register(docsSite());
  app.addHook('onClose', async () => services.live.close());
  return app;
}
