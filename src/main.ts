import { pino } from 'pino';
import { buildApp, createServices } from './app.js';
import { bootstrapFirstAccount } from './accounts/accounts.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openFileStore, type S3Settings } from './files/files.js';
import { deliverySettings } from './delivery/delivery.js';
import { deviceDirectory, devicePorts, startDeviceListeners } from './devices/devices.js';
import { migrate, openDatabase } from './store/database.js';
import { checkIdHeadroom } from './store/id-headroom.js';
import { version } from './version.js';

/**
 * `npm start`: the API and workspace on PORT, a listener per device protocol on its port
 * (OSMAND_PORT, EGTS_PORT, … of src/devices/protocols.ts), one database.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = pino({ level: config.LOG_LEVEL, redact: ['req.headers.authorization'] });

  const replica = config.DATABASE_REPLICA_URL ? { url: config.DATABASE_REPLICA_URL, maxLagMs: config.DATABASE_REPLICA_MAX_LAG } : undefined;
  const database = await openDatabase({ url: config.databaseUrl, poolSize: config.DATABASE_POOL_SIZE, replica });
  // SQLite's log failed to sync (see Database.stopped): exit at once, without closing the database
  // (closing checkpoints the log into the file), as PostgreSQL stops on a failed sync of its log.
  // The restart recovers from what is on disk; clients resend what was not acknowledged.
  void database.stopped.then((error) => {
    log.fatal({ err: error }, 'the database can no longer make writes durable; exiting so that a restart recovers from what is on disk');
    process.exit(1);
  });
  await migrate(database);
  await checkIdHeadroom(database);
  const router = config.ROUTER_URL ? { url: config.ROUTER_URL, timeoutMs: config.ROUTER_TIMEOUT_MS, log: log.child({ component: 'router' }) } : null;
  const geocoder = config.GEOCODER_URL ? { url: config.GEOCODER_URL, timeoutMs: config.GEOCODER_TIMEOUT_MS } : null;
  const services = createServices(database, Date.now, {
    allowPrivateAddresses: config.WEBHOOK_ALLOW_PRIVATE,
    delivery: deliverySettings(config),
    onlineTimeoutMs: config.ONLINE_TIMEOUT,
    router,
    geocoder,
    signalMaxAgeMs: config.SIGNAL_MAX_AGE,
    retention: { serverRetentionDays: config.RETENTION_DAYS, deliveryRetentionDays: config.DELIVERY_RETENTION_DAYS, auditRetentionDays: config.AUDIT_RETENTION_DAYS },
    files: { store: openFileStore(config.DATA_DIR, fileBucket(config)), maxBytes: config.FILES_MAX_BYTES, uploadsPerMinute: config.FILES_UPLOADS_PER_MINUTE },
  });
  await bootstrapFirstAccount(services.accounts, config, log);
  // The weeks of partitions ahead exist before the first fix is taken (PostgreSQL).
  await services.retention.makePartitionsAhead();

  // `/ready` says 503 until every listener listens (the API starts first, devices' ports after it)
  // and from the moment shutdown begins (the device listeners close first, the API last).
  let starting = true;
  let stopping = false;
  const notReady = () => (starting ? 'starting: the device listeners are not listening yet' : stopping ? 'the server is shutting down' : null);
  const app = await buildApp({ database, services, config, logger: log, notReady });
  const { addressFiller } = services.positioning;
  await app.listen({ port: config.PORT, host: config.HOST });
  const devices = await startDeviceListeners({
    ports: devicePorts(config),
    host: config.HOST,
    idleTimeoutMs: config.TRACKER_IDLE_TIMEOUT,
    requestTimeoutMs: config.REQUEST_TIMEOUT,
    directory: deviceDirectory(services),
    ingest: services.positioning.ingest,
    logger: log,
  });
  starting = false;
  log.info(
    { version, store: database.dialect, port: config.PORT, devicePorts: devices.ports, geocoder: Boolean(addressFiller), files: services.files.store.kind },
    `Lokator ${version} is serving on ${database.dialect === 'sqlite' ? config.databaseUrl : 'PostgreSQL'}`,
  );

  addressFiller?.start(log.child({ worker: 'addresses' }));
  await services.delivery.worker.start(log.child({ worker: 'delivery' }));
  services.employees.sweeper.start(log.child({ worker: 'presence' }));
  services.reports.scheduler.start(log.child({ worker: 'report-schedules' }));
  services.retention.start(log.child({ worker: 'retention' }));

  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing requests in flight');
    const force = setTimeout(() => {
      log.error('shutdown took too long; exiting');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS);
    force.unref();
    // Stop taking fixes first, then API requests; in-flight ones finish and commit.
    await devices.close();
    // A keep-alive connection whose request was in flight when closing began is idle only once it
    // is answered (after its commit is on disk), later than close() looks for idle connections:
    // reap them. (The HTTP device listeners reap their own.)
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    await app.close();
    clearInterval(reaper);
    await addressFiller?.stop();
    // Attempts in flight finish and are recorded; deliveries not started stay pending for the next start.
    await services.delivery.worker.stop();
    await services.employees.sweeper.stop();
    await services.reports.scheduler.stop();
    await services.retention.stop();
    await database.close();
    log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`Lokator failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

/** FILES_S3_*: the bucket form files go to, or null for DATA_DIR/files. */
function fileBucket(config: Config): S3Settings | null {
  if (!config.FILES_S3_BUCKET) return null;
  return {
    bucket: config.FILES_S3_BUCKET,
    endpoint: config.FILES_S3_ENDPOINT,
    region: config.FILES_S3_REGION,
    accessKeyId: config.FILES_S3_ACCESS_KEY_ID,
    secretAccessKey: config.FILES_S3_SECRET_ACCESS_KEY,
    forcePathStyle: config.FILES_S3_FORCE_PATH_STYLE,
  };
}
