import nodemailer, { type Transporter } from 'nodemailer';
import { describeNetworkError, type ChannelSender, type ClaimedDelivery, type SendOutcome } from './channel-sender.js';
import { plainTextOf, type MessageTextOf } from './message-text.js';

/** A file attached to an e-mail, made when the e-mail is sent. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

/**
 * Makes the attachments an e-mail's payload describes (`attachments: [...]`), given by the module
 * that wrote them (a scheduled report): the outbox holds what to make, not the file.
 */
export type AttachmentSource = (accountId: number, spec: unknown) => Promise<MailAttachment>;

export interface SmtpSettings {
  /** `smtp://user:pass@host:587` or `smtps://…:465`; or the parts below. */
  url?: string;
  host?: string;
  port?: number;
  user?: string;
  password?: string;
  from: string;
}

/**
 * E-mail through the operator's SMTP server (SMTP_URL or SMTP_HOST…, SMTP_FROM), one message per
 * event and address. Success is the server taking the message (2xx reply) within WEBHOOK_TIMEOUT.
 * A recipient the server refuses for good (5xx) fails the delivery at once; anything else retries.
 */
export class EmailSender implements ChannelSender {
  private readonly transport: Transporter;

  private readonly settings: SmtpSettings;
  private readonly timeoutMs: number;
  private readonly attachmentSource: AttachmentSource | null;
  private readonly textOf: MessageTextOf;

  constructor(options: {
    settings: SmtpSettings;
    /** WEBHOOK_TIMEOUT: connecting, the greeting and each reply. */
    timeoutMs: number;
    /** Makes the files a message names (scheduled reports); none: such a message fails. */
    attachments?: AttachmentSource | null;
    /** What a message says, in its account's language and zone; English and UTC without. */
    textOf?: MessageTextOf;
  }) {
    const { settings, timeoutMs } = options;
    this.settings = settings;
    this.timeoutMs = timeoutMs;
    this.attachmentSource = options.attachments ?? null;
    this.textOf = options.textOf ?? plainTextOf;
    const server = smtpServer(settings);
    this.transport = nodemailer.createTransport({
      pool: true,
      ...server,
      auth: server.user ? { user: server.user, pass: server.password } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
  }

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    let subject: string, text: string, attachments: MailAttachment[];
    try {
      ({ subject, text } = await this.textOf(delivery.accountId, delivery.payload));
      attachments = await this.attachmentsOf(delivery);
    } catch (error) {
      // Made from the database: a failure here is ours, not the mail server's; it is retried.
      return { ok: false, statusCode: null, error: `message or attachment: ${(error as Error).message}`, bug: error };
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), this.timeoutMs);
      });
      const info = await Promise.race([
        this.transport.sendMail({
          from: this.settings.from,
          to: delivery.target,
          subject,
          text,
          attachments,
          // The same id on every retry, so a mailbox can tell a repeat from a new event.
          messageId: `<${delivery.messageId}@lokator>`,
          headers: { 'X-Lokator-Message-Id': delivery.messageId },
        }),
        deadline,
      ]);
      const code = Number.parseInt(String(info.response ?? ''), 10);
      return { ok: true, statusCode: Number.isFinite(code) ? code : null, error: null };
    } catch (error) {
      return failure(error, this.timeoutMs);
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }

  private async attachmentsOf(delivery: ClaimedDelivery): Promise<MailAttachment[]> {
    const specs = attachmentSpecs(delivery.payload);
    if (specs.length === 0) return [];
    if (!this.attachmentSource) throw new Error('no attachment source is configured');
    const made: MailAttachment[] = [];
    for (const spec of specs) made.push(await this.attachmentSource(delivery.accountId, spec));
    return made;
  }
}

/** Host, port, TLS and login from SMTP_URL or the separate settings; smtps:// and port 465 mean TLS from the start. */
export function smtpServer(settings: SmtpSettings): { host: string; port: number; secure: boolean; user: string; password: string } {
  if (settings.url) {
    const url = new URL(settings.url);
    const secure = url.protocol === 'smtps:';
    const port = url.port ? Number(url.port) : secure ? 465 : 587;
    return { host: url.hostname, port, secure: secure || port === 465, user: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  }
  const port = settings.port ?? 587;
  return { host: settings.host ?? 'localhost', port, secure: port === 465, user: settings.user ?? '', password: settings.password ?? '' };
}

function failure(error: unknown, timeoutMs: number): SendOutcome {
  const smtp = error as { responseCode?: number; response?: string; code?: string; message?: string };
  if (typeof smtp.responseCode === 'number') {
    return {
      ok: false,
      statusCode: smtp.responseCode,
      error: `SMTP ${smtp.response ?? smtp.message ?? smtp.responseCode}`,
      permanent: smtp.responseCode >= 500 && smtp.code === 'EENVELOPE',
    };
  }
  const network = describeNetworkError(error);
  if (network) return { ok: false, statusCode: null, error: `SMTP: ${network === 'timeout' ? `timeout: no answer within ${timeoutMs} ms` : network}` };
  if (smtp.code === 'EAUTH' || smtp.code === 'ETLS' || smtp.code === 'EENVELOPE' || smtp.code === 'EMESSAGE') {
    return { ok: false, statusCode: null, error: `SMTP: ${smtp.message ?? smtp.code}` };
  }
  return { ok: false, statusCode: null, error: `internal error: ${smtp.message ?? String(error)}`, bug: error };
}

function attachmentSpecs(payloadJson: string): unknown[] {
  try {
    const payload = JSON.parse(payloadJson) as { attachments?: unknown };
    return Array.isArray(payload?.attachments) ? payload.attachments : [];
  } catch {
    return [];
  }
}
