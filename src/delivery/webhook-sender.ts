import { Agent, request } from 'undici';
import { version } from '../version.js';
import { refuseUrl, safeLookup, systemResolver, unsafeAddressReason, UnsafeAddressError, type Resolver } from './address-safety.js';
import { describeNetworkError, type ChannelSender, type ClaimedDelivery, type SendOutcome } from './channel-sender.js';
import type { SigningSecrets } from './signing-secrets.js';
import { signatureHeader } from './signing.js';

export interface WebhookSenderOptions {
  /** WEBHOOK_ALLOW_PRIVATE: plain http and private addresses allowed (tests, local development). */
  allowPrivate: boolean;
  /** WEBHOOK_TIMEOUT: the whole attempt, from connecting to the response status. */
  timeoutMs: number;
  /** DNS resolution; tests give one that answers what they need. */
  resolver?: Resolver;
  clock?: () => number;
}

const USER_AGENT = `Lokator-Webhooks/${version}`;

/**
 * Webhooks (CONTRACT §4): a signed JSON POST to the rule's URL. Success is any 2xx within
 * WEBHOOK_TIMEOUT. Connections are kept alive per origin; each new one resolves the name again
 * and is checked (address-safety.ts), and a kept one goes to an address that was checked.
 */
export class WebhookSender implements ChannelSender {
  private readonly agent: Agent;
  private readonly clock: () => number;

  constructor(
    private readonly secrets: SigningSecrets,
    private readonly options: WebhookSenderOptions,
  ) {
    this.clock = options.clock ?? Date.now;
    this.agent = new Agent({
      connect: {
        timeout: options.timeoutMs,
        lookup: safeLookup(options.resolver ?? systemResolver, options.allowPrivate ? () => null : unsafeAddressReason),
      },
      keepAliveTimeout: 10_000,
      // The attempt's own deadline (the abort signal) governs; these only must not cut it shorter.
      headersTimeout: options.timeoutMs + 1000,
      bodyTimeout: options.timeoutMs + 1000,
    });
  }

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    let url: URL;
    try {
      url = new URL(delivery.target);
    } catch {
      return { ok: false, statusCode: null, error: `not a URL: ${delivery.target}`, permanent: true };
    }
    const refused = refuseUrl(url, this.options.allowPrivate);
    if (refused) return { ok: false, statusCode: null, error: refused, permanent: true };

    try {
      const keys = await this.secrets.signingKeys(delivery.accountId);
      const timestamp = Math.floor(this.clock() / 1000);
      const response = await request(url, {
        dispatcher: this.agent,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': USER_AGENT,
          'webhook-id': delivery.messageId,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': signatureHeader(delivery.messageId, timestamp, delivery.payload, keys),
        },
        body: delivery.payload,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      // The status is the answer; the body is read only to free the connection, and not waited for long.
      response.body.dump({ limit: 64 * 1024 }).catch(() => {});
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, statusCode: response.statusCode, error: ok ? null : `HTTP ${response.statusCode}` };
    } catch (error) {
      return failure(error, this.options.timeoutMs);
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function failure(error: unknown, timeoutMs: number): SendOutcome {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof UnsafeAddressError) return { ok: false, statusCode: null, error: e.message, permanent: true };
  }
  const network = describeNetworkError(error);
  if (network) return { ok: false, statusCode: null, error: network === 'timeout' ? `timeout: no answer within ${timeoutMs} ms` : network };
  return { ok: false, statusCode: null, error: `internal error: ${error instanceof Error ? error.message : String(error)}`, bug: error };
}
