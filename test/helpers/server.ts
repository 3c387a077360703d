import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { AddressInfo } from 'node:net';
import { buildApp, createServices, type AppConfig, type ServiceOptions, type Services } from '../../src/app.js';
import type { Account } from '../../src/accounts/account-service.js';
import type { Database, Dialect } from '../../src/store/database.js';
import { freshDatabase, type TestDatabase } from './stores.js';

export const ADMIN_TOKEN = 'operator-secret-token-for-tests';

export interface Response<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A client of a running server over real HTTP on loopback. */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly token: string | null,
  ) {}

  withToken(token: string | null): Client {
    return new Client(this.baseUrl, token);
  }

  get<T = any>(path: string, headers: Record<string, string> = {}): Promise<Response<T>> {
    return this.request('GET', path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    return this.request('POST', path, body, headers);
  }
  put<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    return this.request('PUT', path, body, headers);
  }
  patch<T = any>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    return this.request('PATCH', path, body, headers);
  }
  delete<T = any>(path: string, headers: Record<string, string> = {}): Promise<Response<T>> {
    return this.request('DELETE', path, undefined, headers);
  }

  /** `body` is sent as JSON unless it is already a string (then as is, with the caller's content type). */
  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    const init: RequestInit = { method, headers: { ...headers } };
    const h = init.headers as Record<string, string>;
    if (this.token !== null && h.authorization === undefined) h.authorization = `Bearer ${this.token}`;
    if (body !== undefined) {
      if (typeof body === 'string' || body instanceof Uint8Array) {
        init.body = body as string;
      } else {
        init.body = JSON.stringify(body);
        h['content-type'] ??= 'application/json';
      }
    }
    const response = await fetch(`${this.baseUrl}${path}`, init);
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
}

export interface TestServer {
  app: FastifyInstance;
  database: Database;
  services: Services;
  /** Client with the first account's token. */
  api: Client;
  baseUrl: string;
  account: Account;
  token: string;
  /** A second account: tenancy tests use it as the stranger. */
  newAccount(timeZone?: string): Promise<{ account: Account; api: Client }>;
  /** Moves the server's clock (default periods, idempotency lifetimes). */
  setNow(ms: number): void;
  close(): Promise<void>;
}

/** A fresh database and a listening API server on it; one per test file or suite. */
export async function startServer(
  dialect: Dialect,
  options: {
    timeZone?: string;
    now?: number;
    config?: Partial<AppConfig>;
    delivery?: ServiceOptions['delivery'];
    services?: ServiceOptions;
    database?: TestDatabase;
    /** The server's log, for tests that check what it says (and never says). */
    logger?: FastifyBaseLogger;
  } = {},
): Promise<TestServer> {
  const { database, drop } = options.database ?? (await freshDatabase(dialect));
  let now = options.now ?? Date.now();
  let frozen = options.now !== undefined;
  const clock = () => (frozen ? now : Date.now());
  // Receivers in tests listen on loopback (WEBHOOK_ALLOW_PRIVATE=true).
  const services = createServices(database, clock, { allowPrivateAddresses: true, delivery: options.delivery, ...options.services });
  const app = await buildApp({
    database,
    services,
    clock,
    // TEST_LOG=1 shows the server's log, 5xx stack traces included.
    logger: options.logger ?? (process.env.TEST_LOG ? pino({ level: 'warn' }) : false),
    config: { LOKATOR_ADMIN_TOKEN: ADMIN_TOKEN, INGEST_BODY_LIMIT_BYTES: 16 * 1024 * 1024, ...options.config },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const first = await services.accounts.createAccount({ name: 'Test account', timeZone: options.timeZone ?? 'UTC' });
  return {
    app,
    database,
    services,
    api: new Client(baseUrl, first.token),
    baseUrl,
    account: first.account,
    token: first.token,
    async newAccount(timeZone = 'UTC') {
      const other = await services.accounts.createAccount({ name: 'Other account', timeZone });
      return { account: other.account, api: new Client(baseUrl, other.token) };
    },
    setNow(ms: number) {
      now = ms;
      frozen = true;
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

export const SUBSCRIBERS = '/v6/api/subscriberManagement/subscribers';
export const LOCATIONS = '/v6/api/globalPositioningManagement/locations';

/**
 * An employee as reads answer it before its device was heard: the create's answer without the
 * device key, with its hint (the key is shown once), and an empty device status.
 */
export function employeeAsRead(created: Record<string, any>): Record<string, any> {
  const { deviceKey, ...read } = created;
  return {
    ...read,
    deviceKeyHint: deviceKey === null ? null : `…${String(deviceKey).slice(-4)}`,
    deviceStatus: { lastAddress: null, lastConnectionDate: null, lastDataDate: null },
  };
}

/** Creates an employee through the API and returns its id. */
export async function createEmployee(api: Client, body: Record<string, unknown> = {}): Promise<number> {
  const response = await api.post(SUBSCRIBERS, { name: 'Ivan Petrov', ...body });
  if (response.status !== 201) throw new Error(`creating an employee failed: ${response.status} ${response.text}`);
  return response.body.subscriberID as number;
}
