import { join } from 'node:path';
import ipaddr from 'ipaddr.js';
import { passwordProblem } from './accounts/accounts.js';
import { deviceProtocols, type DevicePortSetting } from './devices/protocols.js';
import { isValidTimeZone } from './http/datetime.js';

/**
 * Every setting Lokator reads from the environment, with its default and a line of doc.
 * `loadConfig` checks them all at boot and lists every bad one, so a typo stops the start
 * instead of running with a silent fallback.
 */
interface Setting<T> {
  doc: string;
  default?: T;
  /**
   * A credential, or a URL (which may carry `user:password@` or an API key in its query): an
   * invalid value is named and its rule given, but the value itself never appears in an error.
   */
  secret?: true;
  parse(raw: string): T;
}

/**
 * A broken rule of a setting. Its message is the rule, never the value: only these messages are
 * shown, so an error thrown by anything else (`new URL` keeps its input) cannot carry a secret out.
 */
class SettingRule extends Error {}

const port = (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new SettingRule('must be a port number 0-65535');
  return n;
};
const text = (raw: string) => raw;
const positiveInt = (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new SettingRule('must be a positive integer');
  return n;
};
const days = (raw: string) => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 36_500) throw new SettingRule('must be a whole number of days, 0 to 36500 (0: for ever)');
  return n;
};
/** API tokens: long random strings, not passwords people remember (those follow password-policy.ts). */
const token = (raw: string) => {
  if (raw.length < 16) throw new SettingRule('must be at least 16 characters');
  return raw;
};
const password = (raw: string) => {
  const problem = passwordProblem(raw);
  if (problem) throw new SettingRule(problem);
  return raw;
};

/** A URL setting: always secret, since URLs carry logins and API keys. */
function url(doc: string, schemes: string[]): Setting<string> & { secret: true } {
  const rule = `must be a ${schemes.map((s) => `${s}//`).join(' or ')} URL`;
  return {
    doc,
    secret: true,
    parse: (raw) => {
      if (!URL.canParse(raw) || !schemes.includes(new URL(raw).protocol)) throw new SettingRule(rule);
      return raw;
    },
  };
}
const httpSchemes = ['http:', 'https:'];

/** proxy-addr's names for ranges, as Fastify's `trustProxy` takes them. */
const proxyRangeNames = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * Which peers may tell the client's address in `X-Forwarded-For`: `false`, `true`, or a comma
 * list of addresses and CIDR ranges. Hop counts are refused: Fastify ignores them (a hop count
 * cannot tell the proxy from a client that connects directly and writes the header itself).
 */
function trustedProxies(raw: string): boolean | string[] {
  if (raw === 'false') return false;
  if (raw === 'true') return true;
  const rule = 'must be false, true, or a comma list of proxy addresses and CIDR ranges (e.g. 10.0.0.5,192.168.0.0/16)';
  const items = raw.split(',').map((item) => item.trim());
  for (const item of items) {
    if (proxyRangeNames.includes(item)) continue;
    const [address = '', prefix, extra] = item.split('/');
    const exact = ipaddr.IPv4.isValidFourPartDecimal(address) || ipaddr.IPv6.isValid(address);
    if (!exact || extra !== undefined || (prefix !== undefined && !ipaddr.isValidCIDR(item))) throw new SettingRule(rule);
  }
  return items;
}

/** `500ms`, `5s`, `5m`, `2h` → milliseconds. */
export function durationMs(raw: string): number {
  const match = /^(\d+)(ms|s|m|h)$/.exec(raw);
  if (!match) throw new SettingRule('must be a duration such as 5s, 5m or 2h');
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[match[2] as 'ms' | 's' | 'm' | 'h'];
  return Number(match[1]) * unit;
}

/** A port setting per device protocol (OSMAND_PORT, EGTS_PORT, …), declared with its protocol in src/devices/. */
const devicePortSettings = Object.fromEntries(
  deviceProtocols.map((protocol) => [protocol.port.setting, { doc: protocol.port.doc, default: protocol.port.default, parse: port }]),
) as Record<DevicePortSetting, Setting<number> & { default: number }>;

export const settings = {
  PORT: { doc: 'HTTP port of the API and the workspace', default: 8080, parse: port },
  HOST: { doc: 'address to listen on', default: '0.0.0.0', parse: text },
  ...devicePortSettings,
  TRACKER_IDLE_TIMEOUT: { doc: 'a tracker connection that sends nothing for this long is closed (s, m, h)', default: 600_000, parse: durationMs },
  DATA_DIR: { doc: 'folder of the embedded SQLite database', default: './data', parse: text },
  DATABASE_URL: url('`postgres://…` to use PostgreSQL instead of the embedded SQLite file', ['postgres:', 'postgresql:']),
  DATABASE_POOL_SIZE: { doc: 'PostgreSQL connections per server', default: 10, parse: positiveInt },
  DATABASE_REPLICA_URL: url('`postgres://…` of a streaming replica of DATABASE_URL: the GET requests of /v6/api read from it', ['postgres:', 'postgresql:']),
  DATABASE_REPLICA_MAX_LAG: {
    doc: 'reads go back to the primary while the replica is further behind than this (ms, s, m)',
    default: 2000,
    parse: durationMs,
  },
  RETENTION_DAYS: { doc: 'days of fixes an account keeps unless it has its own setting; 0 keeps them for ever', default: 0, parse: days },
  AUDIT_RETENTION_DAYS: { doc: 'days the audit log (who changed what, sign-ins) is kept; 0: for ever', default: 365, parse: days },
  DELIVERY_RETENTION_DAYS: { doc: 'days finished deliveries and their attempts are kept (fewer when the account keeps fixes fewer), and report schedules\' past sends (at least 31); 0: for ever', default: 30, parse: days },
  LOG_LEVEL: {
    doc: 'pino log level (fatal, error, warn, info, debug, trace, silent)',
    default: 'info',
    parse: (raw: string) => {
      if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(raw)) throw new SettingRule('unknown level');
      return raw;
    },
  },
  LOKATOR_BOOTSTRAP_TOKEN: {
    doc: 'API token of the first account, created at the first start when the database has none',
    secret: true,
    parse: token,
  },
  LOKATOR_BOOTSTRAP_PASSWORD: { doc: 'password of the first account’s workspace user `admin`', secret: true, parse: password },
  LOKATOR_BOOTSTRAP_TIME_ZONE: {
    doc: 'IANA time zone of the first account',
    default: 'UTC',
    parse: (raw: string) => {
      if (!isValidTimeZone(raw)) throw new SettingRule('not an IANA time zone');
      return raw;
    },
  },
  LOKATOR_ADMIN_TOKEN: { doc: 'enables the operator routes /admin/v1/accounts with this bearer token', secret: true, parse: token },
  INGEST_BODY_LIMIT_BYTES: {
    doc: 'largest body of POST …/locations (a batch holds up to 10,000 fixes)',
    default: 16 * 1024 * 1024,
    parse: positiveInt,
  },
  PUBLIC_URL: {
    doc: 'the address phones and trackers reach this server at (its host, e.g. https://track.example.com); the connection settings and QR codes use it',
    // As every URL setting: one with credentials in it must not reach a log.
    secret: true,
    parse: (raw: string) => {
      if (!URL.canParse(raw) || !httpSchemes.includes(new URL(raw).protocol)) throw new SettingRule('must be an http:// or https:// URL');
      return raw;
    },
  },
  GEOCODER_URL: url('base URL of a Nominatim-compatible reverse geocoder for track addresses (else zone, map object or coordinates)', httpSchemes),
  GEOCODER_TIMEOUT_MS: { doc: 'how long one reverse-geocoding request may take', default: 5000, parse: positiveInt },
  ROUTER_URL: url('base URL of an OSRM-compatible router for estimated arrival (signal 24); straight-line estimates without', httpSchemes),
  ROUTER_TIMEOUT_MS: { doc: 'how long one router request may take (ingestion never waits for it)', default: 2000, parse: positiveInt },
  WEBHOOK_ALLOW_PRIVATE: {
    doc: 'true lifts the address safety of outgoing calls: plain http and loopback/private addresses (tests, local development)',
    default: false,
    parse: (raw: string) => {
      if (raw !== 'true' && raw !== 'false') throw new SettingRule('must be true or false');
      return raw === 'true';
    },
  },
  WEBHOOK_RETRY_SCHEDULE: {
    doc: 'delays between delivery attempts, a comma list of durations (s, m, h)',
    default: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
    parse: (raw: string) => raw.split(',').map((part) => durationMs(part.trim())),
  },
  WEBHOOK_TIMEOUT: { doc: 'how long a receiver has to answer one delivery attempt (s, m, h)', default: 10_000, parse: durationMs },
  DELIVERY_CONCURRENCY: { doc: 'receivers (targets) sent to in parallel; each one gets its deliveries strictly in order', default: 32, parse: positiveInt },
  SMTP_URL: url('SMTP server for e-mail events: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`', ['smtp:', 'smtps:']),
  SMTP_HOST: { doc: 'SMTP server host, instead of SMTP_URL', parse: text },
  SMTP_PORT: { doc: 'SMTP port with SMTP_HOST (default 587; 465 means TLS from the start)', parse: port },
  SMTP_USER: { doc: 'SMTP login with SMTP_HOST', parse: text },
  SMTP_PASSWORD: { doc: 'SMTP password with SMTP_HOST', secret: true, parse: text },
  SMTP_FROM: { doc: 'sender address of e-mail events, e.g. `Lokator <lokator@example.com>`; required with SMTP_URL or SMTP_HOST', parse: text },
  SMS_GATEWAY_URL: url('HTTP gateway for SMS events: POST {"to", "text", "messageID"} as JSON (see docs/integrators/webhooks.md)', httpSchemes),
  MESSENGER_GATEWAY_URL: url('HTTP gateway of the first messenger channel: POST {"to", "text", "messageID"} as JSON', httpSchemes),
  MESSENGER2_GATEWAY_URL: url('HTTP gateway of the second messenger channel: POST {"to", "text", "messageID"} as JSON', httpSchemes),
  ONLINE_TIMEOUT: {
    doc: 'an employee no current fix arrived for this long turns isOnline false, and a fix older than this on arrival turns nobody online (s, m, h)',
    default: 600_000,
    parse: (raw: string) => {
      const ms = durationMs(raw);
      if (ms < 10_000) throw new SettingRule('must be at least 10s');
      return ms;
    },
  },
  SIGNAL_MAX_AGE: {
    doc: 'fixes dated longer than this before they arrive are history (an import) and fire no signal (s, m, h)',
    default: 12 * 3_600_000,
    parse: durationMs,
  },
  MAP_TILE_URL: {
    doc: 'raster tiles of the workspace map, `{z}/{x}/{y}` (and `{s}`) placeholders; `none` for a plain background',
    default: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
    // Tile services put their API key in the URL (`?apikey=…`).
    secret: true,
    parse: (raw: string) => {
      if (raw === 'none') return raw;
      const rule = 'must be an http:// or https:// URL with {z}, {x} and {y}, or none';
      const filled = raw.replace(/\{[a-z]+\}/g, 'a');
      if (!URL.canParse(filled) || !httpSchemes.includes(new URL(filled).protocol)) throw new SettingRule(rule);
      if (!raw.includes('{z}') || !raw.includes('{x}') || !raw.includes('{y}')) throw new SettingRule(rule);
      return raw;
    },
  },
  MAP_TILE_ATTRIBUTION: {
    doc: 'attribution shown under the map for its tiles',
    default: '© OpenStreetMap contributors',
    parse: text,
  },
  REQUEST_TIMEOUT: {
    doc: 'a request whose headers and body have not all arrived within this is cut (408) and its buffered body freed (ms, s, m)',
    default: 30_000,
    parse: (raw: string) => {
      const ms = durationMs(raw);
      if (ms < 100) throw new SettingRule('must be at least 100ms');
      return ms;
    },
  },
  MAX_REQUESTS_IN_FLIGHT: {
    doc: 'requests one user (an API token or a workspace session) may have open at once; more are 429 with Retry-After',
    default: 16,
    parse: positiveInt,
  },
  TRUST_PROXY: {
    doc: 'behind a reverse proxy: which peers are trusted to give the client address in X-Forwarded-For (false, true, or a comma list of addresses and CIDR ranges)',
    default: false,
    parse: trustedProxies,
  },
  FILES_MAX_BYTES: { doc: 'largest picture or file the employee\'s app may upload for a task\'s form (bytes; larger: 413)', default: 10 * 1024 * 1024, parse: positiveInt },
  FILES_UPLOADS_PER_MINUTE: { doc: 'uploads one device key may make per minute; more are 429 with Retry-After', default: 30, parse: positiveInt },
  FILES_S3_BUCKET: { doc: 'keep form files in this S3 bucket instead of DATA_DIR/files', parse: text },
  FILES_S3_ENDPOINT: url('endpoint of an S3-compatible store (MinIO, Yandex Object Storage, …); AWS S3 without', httpSchemes),
  FILES_S3_REGION: { doc: 'region of the S3 bucket', default: 'us-east-1', parse: text },
  FILES_S3_ACCESS_KEY_ID: { doc: 'access key of the S3 bucket (else the SDK\'s usual sources: AWS_* variables, instance role)', secret: true, parse: text },
  FILES_S3_SECRET_ACCESS_KEY: { doc: 'secret key of the S3 bucket, with FILES_S3_ACCESS_KEY_ID', secret: true, parse: text },
  FILES_S3_FORCE_PATH_STYLE: {
    doc: 'true addresses the bucket as endpoint/bucket (MinIO and most S3-compatible stores) rather than as bucket.endpoint',
    default: true,
    parse: (raw: string) => {
      if (raw !== 'true' && raw !== 'false') throw new SettingRule('must be true or false');
      return raw === 'true';
    },
  },
  SHUTDOWN_GRACE_MS: { doc: 'time in-flight requests get to finish on SIGTERM', default: 10_000, parse: positiveInt },
} satisfies Record<string, Setting<unknown>>;

type Settings = typeof settings;
export type Config = {
  [K in keyof Settings]: Settings[K] extends { default: unknown }
    ? ReturnType<Settings[K]['parse']>
    : ReturnType<Settings[K]['parse']> | undefined;
} & { databaseUrl: string };

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const values: Record<string, unknown> = {};
  for (const [name, setting] of Object.entries(settings) as [string, Setting<unknown>][]) {
    const raw = env[name];
    if (raw === undefined || raw === '') {
      values[name] = setting.default;
      continue;
    }
    try {
      values[name] = setting.parse(raw);
    } catch (error) {
      const rule = error instanceof SettingRule ? error.message : 'is not valid';
      const shown = setting.secret ? `${name} (value not shown)` : `${name}=${JSON.stringify(raw)}`;
      problems.push(`${shown}: ${rule} (${setting.doc})`);
    }
  }
  if (values.SMTP_URL !== undefined && values.SMTP_HOST !== undefined) problems.push('SMTP_URL and SMTP_HOST: set one of them, not both');
  if ((values.SMTP_URL !== undefined || values.SMTP_HOST !== undefined) && values.SMTP_FROM === undefined) {
    problems.push('SMTP_FROM: required when e-mail is configured (SMTP_URL or SMTP_HOST)');
  }
  if (values.DATABASE_REPLICA_URL !== undefined && values.DATABASE_URL === undefined) {
    problems.push('DATABASE_REPLICA_URL: a replica of PostgreSQL needs DATABASE_URL (the primary) as well');
  }
  if ((values.FILES_S3_ACCESS_KEY_ID === undefined) !== (values.FILES_S3_SECRET_ACCESS_KEY === undefined)) {
    problems.push('FILES_S3_ACCESS_KEY_ID and FILES_S3_SECRET_ACCESS_KEY: set both or neither');
  }
  if (values.FILES_S3_ENDPOINT !== undefined && values.FILES_S3_BUCKET === undefined) problems.push('FILES_S3_ENDPOINT: needs FILES_S3_BUCKET as well');
  if (problems.length > 0) throw new ConfigError(`invalid configuration:\n  ${problems.join('\n  ')}`);
  const config = values as Omit<Config, 'databaseUrl'>;
  return { ...config, databaseUrl: config.DATABASE_URL ?? join(config.DATA_DIR, 'lokator.db') };
}
