import { getSystemErrorName } from 'node:util';
import type { Channel } from './outbox.js';

/** A delivery the worker holds a claim on and is about to send. */
export interface ClaimedDelivery {
  id: number;
  accountId: number;
  eventRuleId: number | null;
  channel: Channel;
  target: string;
  /** The `webhook-id`: the same on every attempt and every resend. */
  messageId: string;
  /** The JSON text written to the outbox. */
  payload: string;
  /** Attempts since the delivery was (re)queued; decides the next retry delay. */
  attemptCount: number;
  /** When this attempt was due: the outbox write, a resend, or the retry time. */
  nextAttemptAt: number;
  createdAt: number;
}

/** What one attempt came to. */
export interface SendOutcome {
  ok: boolean;
  /** HTTP status (webhooks, gateways) or SMTP reply code (e-mail); null when none came back. */
  statusCode: number | null;
  /** Why it did not succeed, for the deliveries log; null on success. */
  error: string | null;
  /**
   * Trying again cannot help (a refused address, a channel that is not configured, a
   * recipient the mail server rejects for good): the delivery fails now instead of retrying.
   */
  permanent?: boolean;
  /**
   * Set when the failure is a bug of ours rather than the network or the receiver; the worker
   * logs it as an error with its stack, and still retries.
   */
  bug?: unknown;
}

/** Sends deliveries of one channel. `send` never throws: every failure is an outcome. */
export interface ChannelSender {
  send(delivery: ClaimedDelivery): Promise<SendOutcome>;
  close(): Promise<void>;
}

/** A channel whose setting is missing: its deliveries fail at once, visibly, never silently dropped. */
export class UnconfiguredChannel implements ChannelSender {
  constructor(private readonly why: string) {}

  async send(): Promise<SendOutcome> {
    return { ok: false, statusCode: null, error: this.why, permanent: true };
  }

  async close(): Promise<void> {}
}

const NETWORK_CODES: Record<string, string> = {
  ECONNRESET: 'connection reset',
  ECONNREFUSED: 'connection refused',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed while sending',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EHOSTDOWN: 'host down',
  ENOTFOUND: 'DNS: name not found',
  EAI_AGAIN: 'DNS: temporary failure',
  EAI_FAIL: 'DNS: failure',
  ESOCKET: 'socket error',
  ECONNECTION: 'connection error',
  EDNS: 'DNS error',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  UND_ERR_HEADERS_TIMEOUT: 'no response in time',
  UND_ERR_BODY_TIMEOUT: 'response body too slow',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_REQ_CONTENT_LENGTH_MISMATCH: 'request length mismatch',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'response length mismatch',
};

/**
 * Tells the failures a network and a receiver cause (expected: resets, timeouts, DNS, TLS) from
 * bugs. Expected ones become a short message for the log of attempts; anything else is a bug.
 */
export function describeNetworkError(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { errno } = e as NodeJS.ErrnoException;
    // nodemailer wraps socket errors as ESOCKET; the system error it carries says more.
    const system = typeof errno === 'number' && errno < 0 ? getSystemErrorName(errno) : undefined;
    const code = system && NETWORK_CODES[system] ? system : (e as NodeJS.ErrnoException).code;
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout';
    if (code && NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`;
    if (code && (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))) {
      return `TLS: ${e.message} (${code})`;
    }
  }
  return null;
}
