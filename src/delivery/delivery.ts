/** The face of delivery: the outbox every module writes to, and the worker that sends it (see .dependency-cruiser.mjs). */
import type { Registry } from 'prom-client';
import type { AccountReader } from '../accounts/accounts.js';
import { settings, type Config } from '../config.js';
import type { Routes } from '../http/route-types.js';
import type { AuditRecorder } from '../audit/audit.js';
import type { Database } from '../store/database.js';
import type { Resolver } from './address-safety.js';
import { UnconfiguredChannel, type ChannelSender } from './channel-sender.js';
import { DeliveryLog } from './delivery-log.js';
import { createDeliveryMetrics } from './delivery-metrics.js';
import { DeliveryQueue } from './delivery-queue.js';
import { deliveryRoutes } from './delivery-routes.js';
import { DeliveryWorker } from './delivery-worker.js';
import { EmailSender, type AttachmentSource, type SmtpSettings } from './email-sender.js';
import { GatewaySender } from './gateway-sender.js';
import { DEFAULT_READER, messageText, type EventLines, type MessageReaderOf, type MessageTextOf } from './message-text.js';
import { Outbox, type Channel } from './outbox.js';
import { SigningSecrets } from './signing-secrets.js';
import { WebhookSender } from './webhook-sender.js';

export interface DeliverySettings {
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** WEBHOOK_RETRY_SCHEDULE */
  retryScheduleMs: number[];
  /** WEBHOOK_TIMEOUT, for every channel */
  timeoutMs: number;
  /** SMTP_*; without it e-mail deliveries fail with a message saying so. */
  smtp?: SmtpSettings;
  smsGatewayUrl?: string;
  messengerGatewayUrl?: string;
  messenger2GatewayUrl?: string;
  /** DELIVERY_CONCURRENCY: targets sent to in parallel. */
  concurrency?: number;
  /** PostgreSQL URL to LISTEN on for new deliveries (DATABASE_URL). */
  listenUrl?: string;
  /** DNS for webhook targets; tests give their own. */
  resolver?: Resolver;
}

export const defaultDeliverySettings: DeliverySettings = {
  allowPrivate: false,
  retryScheduleMs: settings.WEBHOOK_RETRY_SCHEDULE.default,
  timeoutMs: settings.WEBHOOK_TIMEOUT.default,
};

/** The delivery settings of a loaded configuration. */
export function deliverySettings(config: Config): DeliverySettings {
  const smtpConfigured = config.SMTP_URL !== undefined || config.SMTP_HOST !== undefined;
  return {
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    retryScheduleMs: config.WEBHOOK_RETRY_SCHEDULE,
    timeoutMs: config.WEBHOOK_TIMEOUT,
    smtp: smtpConfigured
      ? { url: config.SMTP_URL, host: config.SMTP_HOST, port: config.SMTP_PORT, user: config.SMTP_USER, password: config.SMTP_PASSWORD, from: config.SMTP_FROM! }
      : undefined,
    smsGatewayUrl: config.SMS_GATEWAY_URL,
    messengerGatewayUrl: config.MESSENGER_GATEWAY_URL,
    messenger2GatewayUrl: config.MESSENGER2_GATEWAY_URL,
    concurrency: config.DELIVERY_CONCURRENCY,
    listenUrl: config.DATABASE_URL,
  };
}

/** Where a module writes what is to be sent, in the transaction of the change that caused it. */
export type OutboxWriter = Pick<Outbox, 'enqueue'>;

export interface DeliveryDependencies {
  database: Database;
  clock?: () => number;
  /** Where the delivery metrics go (`/metrics`). */
  registry: Registry;
  settings: DeliverySettings;
  /** Each account's language and zone, which its e-mails, SMS and messenger texts are written in; English and UTC without. */
  accounts?: Pick<AccountReader, 'getCached'>;
  /** Makes e-mail attachments (scheduled reports) when they are sent. */
  attachments?: AttachmentSource;
  /** What each kind of event rule's message says (the signals module's); a signal's type number without. */
  eventLines?: EventLines;
  /** Where signing-secret rotations are logged. */
  audit?: AuditRecorder;
}

export interface Delivery {
  outbox: OutboxWriter;
  /** Sends what the outbox holds; started and stopped by main.ts. */
  worker: Pick<DeliveryWorker, 'start' | 'stop'>;
  /** Under `/v6/api`: the deliveries log, resend, and the signing secret. */
  routes: Routes;
}

/** The delivery side of CONTRACT §4, composed: the outbox, the worker with a sender per channel, the log, the secrets. */
export function createDelivery({ database, clock = Date.now, registry, settings: options, accounts, attachments, eventLines, audit }: DeliveryDependencies): Delivery {
  const outbox = new Outbox(database, clock);
  const secrets = new SigningSecrets(database, clock, audit);
  // Cached as tokens are: a new language reaches messages within PRINCIPAL_CACHE_MS (at once on the server that saved it).
  const readerOf: MessageReaderOf = async (accountId) => {
    const account = await accounts?.getCached(accountId);
    return account ? { locale: account.locale, timeZone: account.timeZone } : DEFAULT_READER;
  };
  const textOf: MessageTextOf = async (accountId, payload) => messageText(payload, await readerOf(accountId), eventLines);
  const gateway = (url: string | undefined, setting: string) =>
    url ? new GatewaySender(url, options.timeoutMs, textOf) : new UnconfiguredChannel(`this channel is not configured: set ${setting}`);
  const senders: Record<Channel, ChannelSender> = {
    webhook: new WebhookSender(secrets, { allowPrivate: options.allowPrivate, timeoutMs: options.timeoutMs, resolver: options.resolver, clock }),
    email: options.smtp
      ? new EmailSender({ settings: options.smtp, timeoutMs: options.timeoutMs, attachments, textOf })
      : new UnconfiguredChannel('e-mail is not configured: set SMTP_URL (or SMTP_HOST) and SMTP_FROM'),
    sms: gateway(options.smsGatewayUrl, 'SMS_GATEWAY_URL'),
    messenger: gateway(options.messengerGatewayUrl, 'MESSENGER_GATEWAY_URL'),
    messenger2: gateway(options.messenger2GatewayUrl, 'MESSENGER2_GATEWAY_URL'),
  };
  const worker = new DeliveryWorker({
    database,
    outbox,
    queue: new DeliveryQueue(database),
    senders,
    metrics: createDeliveryMetrics(registry),
    clock,
    retryScheduleMs: options.retryScheduleMs,
    concurrency: options.concurrency,
    listenUrl: options.listenUrl,
  });
  const log = new DeliveryLog(database, () => worker.nudge(), clock);
  return { outbox, worker, routes: deliveryRoutes(log, secrets) };
}

export type { OutgoingMessage } from './outbox.js';
export { deleteFinishedDeliveries } from './delivery-retention.js';
export type { AttachmentSource, MailAttachment } from './email-sender.js';
export type { EventLines, MessageReader, MessageReaderOf } from './message-text.js';
