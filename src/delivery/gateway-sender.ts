import { Agent, request } from 'undici';
import { version } from '../version.js';
import { describeNetworkError, type ChannelSender, type ClaimedDelivery, type SendOutcome } from './channel-sender.js';
import { plainTextOf, type MessageTextOf } from './message-text.js';

/**
 * SMS and the two messenger channels, through an HTTP gateway the operator runs or rents
 * (SMS_GATEWAY_URL, MESSENGER_GATEWAY_URL, MESSENGER2_GATEWAY_URL). One request per message:
 *
 *     POST <gateway URL>
 *     Content-Type: application/json
 *     Idempotency-Key: <message id>          (the same on every retry: a gateway may dedupe on it)
 *     {"to": "<phone number or messenger user id>", "text": "<the message>", "messageID": "<message id>"}
 *
 * Any 2xx within WEBHOOK_TIMEOUT is success; anything else is retried like a webhook. The
 * gateway is the operator's own setting, not a customer's URL, so address safety does not apply.
 */
export class GatewaySender implements ChannelSender {
  private readonly agent: Agent;

  constructor(
    private readonly url: string,
    private readonly timeoutMs: number,
    private readonly textOf: MessageTextOf = plainTextOf,
  ) {
    this.agent = new Agent({ connect: { timeout: timeoutMs }, headersTimeout: timeoutMs + 1000, bodyTimeout: timeoutMs + 1000 });
  }

  async send(delivery: ClaimedDelivery): Promise<SendOutcome> {
    try {
      const { subject, text } = await this.textOf(delivery.accountId, delivery.payload);
      // An SMS has room for the first line; a messenger shows it all.
      const body = JSON.stringify({ to: delivery.target, text: delivery.channel === 'sms' ? subject : text, messageID: delivery.messageId });
      const response = await request(this.url, {
        dispatcher: this.agent,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': `Lokator/${version}`, 'idempotency-key': delivery.messageId },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      response.body.dump({ limit: 64 * 1024 }).catch(() => {});
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return { ok, statusCode: response.statusCode, error: ok ? null : `gateway answered HTTP ${response.statusCode}` };
    } catch (error) {
      const network = describeNetworkError(error);
      if (network) return { ok: false, statusCode: null, error: `gateway: ${network === 'timeout' ? `timeout: no answer within ${this.timeoutMs} ms` : network}` };
      return { ok: false, statusCode: null, error: `internal error: ${error instanceof Error ? error.message : String(error)}`, bug: error };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}
