import { createHmac, randomBytes } from 'node:crypto';

/**
 * Standard Webhooks signing (CONTRACT §4): `webhook-signature` holds `v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">` for each secret in force, separated by spaces, so that during a rotation
 * a receiver that knows either secret can verify.
 */

const PREFIX = 'whsec_';

/** `whsec_` and 32 random bytes in base64, the form Standard Webhooks libraries take. */
export function newSigningSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

/** The HMAC key of a `whsec_…` secret: the bytes its base64 part encodes. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signatureHeader(messageId: string, timestampSeconds: number, body: string, keys: Buffer[]): string {
  const signed = `${messageId}.${timestampSeconds}.${body}`;
  return keys.map((key) => `v1,${createHmac('sha256', key).update(signed).digest('base64')}`).join(' ');
}
