import type { FastifyInstance } from 'fastify';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before } from 'node:test';
import { pino } from 'pino';
import { buildApp, createServices, type Services } from '../../src/app.js';
import type { Account } from '../../src/accounts/account-service.js';
import type { DeliverySettings } from '../../src/delivery/delivery.js';
import type { Channel, OutgoingMessage } from '../../src/delivery/outbox.js';
import type { Database, Dialect } from '../../src/store/database.js';
import { Client } from '../helpers/server.js';
import { freshDatabase } from '../helpers/stores.js';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

/** What a receiver does with a request: answer with a status, or misbehave. */
export type Behaviour =
  | { status: number; delayMs?: number }
  | { reset: true }
  | { hang: true }
  /** Answers 200 with headers, then dribbles the body slowly. */
  | { slowBody: number };

/** An HTTP receiver on loopback that records every request (CONTRACT §4 tests: loopback only). */
export class Receiver {
  readonly received: Received[] = [];
  /** Requests that arrived while another one to the same path was still unanswered. */
  readonly overlaps: Received[] = [];
  private readonly openPerPath = new Map<string, number>();
  private server!: Server;
  private readonly open = new Set<ServerResponse>();
  url = '';

  constructor(private readonly behave: (request: Received, index: number) => Behaviour = () => ({ status: 200 })) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request: Received = { path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
        const index = this.received.push(request) - 1;
        const open = this.openPerPath.get(request.path) ?? 0;
        if (open > 0) this.overlaps.push(request);
        this.openPerPath.set(request.path, open + 1);
        res.on('close', () => this.openPerPath.set(request.path, this.openPerPath.get(request.path)! - 1));
        this.respond(this.behave(request, index), req, res);
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  private respond(behaviour: Behaviour, req: IncomingMessage, res: ServerResponse): void {
    if ('reset' in behaviour) {
      req.socket.resetAndDestroy();
      return;
    }
    if ('hang' in behaviour) {
      this.open.add(res);
      res.on('close', () => this.open.delete(res));
      return;
    }
    if ('slowBody' in behaviour) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      let left = 5;
      const tick = setInterval(() => {
        if (res.destroyed || left-- === 0) {
          clearInterval(tick);
          res.end();
          return;
        }
        res.write('.');
      }, behaviour.slowBody);
      return;
    }
    const send = () => res.writeHead(behaviour.status, { 'content-type': 'application/json' }).end('{}');
    if (behaviour.delayMs) setTimeout(send, behaviour.delayMs);
    else send();
  }

  /** Requests to one path, in arrival order. */
  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export interface DeliveryServer {
  database: Database;
  url: string;
  services: Services;
  app: FastifyInstance;
  api: Client;
  account: Account;
  close(): Promise<void>;
}

/**
 * Quick retries, loopback allowed: what most delivery tests want. The timeout is not short: a receiver
 * on loopback answers at once, but a machine running several test files may hold a reply for seconds,
 * and three timed-out attempts would fail the delivery. Tests of timeouts set their own.
 */
export const FAST: Partial<DeliverySettings> = { retryScheduleMs: [50, 100], timeoutMs: 10_000 };

/** A fresh database, services with these delivery settings, the API on loopback; the worker is not started. */
export async function startDeliveryServer(
  dialect: Dialect,
  delivery: Partial<DeliverySettings> = FAST,
  options: { allowPrivate?: boolean } = {},
): Promise<DeliveryServer> {
  const { database, url, drop } = await freshDatabase(dialect);
  const listenUrl = dialect === 'postgres' ? url : undefined;
  const services = createServices(database, Date.now, { allowPrivateAddresses: options.allowPrivate ?? true, delivery: { listenUrl, ...delivery } });
  const app = await buildApp({
    database,
    services,
    logger: process.env.TEST_LOG ? pino({ level: 'warn' }) : false,
    config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 1024 * 1024 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { account, token } = await services.accounts.createAccount({ name: 'Delivery account', timeZone: 'UTC' });
  return {
    database,
    url,
    services,
    app,
    api: new Client(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, token),
    account,
    async close() {
      await services.delivery.worker.stop();
      await app.close();
      await drop();
    },
  };
}

export const testLog = () => pino({ level: process.env.TEST_LOG ? 'info' : 'silent' });

/** A delivery server whose worker runs, posting to a receiver on loopback that answers 200. */
export interface LiveDelivery {
  server: DeliveryServer;
  receiver: Receiver;
}

/**
 * Starts a `LiveDelivery` in `before` of the enclosing describe and closes it in `after`: read
 * its fields inside the tests, once `before` has run.
 */
export function liveDelivery(dialect: Dialect): LiveDelivery {
  const live = {} as LiveDelivery;
  before(async () => {
    live.server = await startDeliveryServer(dialect);
    live.receiver = await new Receiver().start();
    await live.server.services.delivery.worker.start(testLog());
  });
  after(async () => {
    await live.server.close();
    await live.receiver.close();
  });
  return live;
}

/** Writes messages to the outbox the way every producer does: inside a transaction. */
export async function enqueue(services: Services, database: Database, messages: OutgoingMessage[]): Promise<void> {
  await database.transaction((tx) => services.delivery.outbox.enqueue(tx, messages));
}

export function webhook(accountId: number, target: string, payload: unknown, eventRuleId: number | null = null): OutgoingMessage {
  return { accountId, eventRuleId, channel: 'webhook', target, payload };
}

export function message(accountId: number, channel: Channel, target: string, payload: unknown): OutgoingMessage {
  return { accountId, eventRuleId: null, channel, target, payload };
}

/** Every delivery row of the database, oldest first. */
export function deliveryRows(database: Database) {
  return database.db.selectFrom('deliveries').selectAll().orderBy('id').execute();
}
