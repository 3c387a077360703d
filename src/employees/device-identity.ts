import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Which listener hears an employee's device key, what the key must look like there, and the
 * terminal's optional password. The spelling of the protocols is the workspace's and the API's
 * (`GET /v6/api/workspace/...` devices, the connection settings).
 */
export const deviceProtocols = ['osmand', 'egts', 'wialonIps', 'teltonika'] as const;
export type DeviceProtocol = (typeof deviceProtocols)[number];

/** Protocols whose login carries a password (Wialon IPS `#L#`, EGTS authentication); the others carry none. */
export const passwordProtocols: readonly DeviceProtocol[] = ['egts', 'wialonIps'];

/**
 * Why a device key does not suit its protocol, or null when it does. Null protocol (a phone, as
 * before protocols were named) and `osmand`: 6 to 128 printable characters, hard to guess because
 * the key is the phone's only credential. A tracker's key is the identifier its protocol sends.
 */
export function deviceKeyProblem(protocol: DeviceProtocol | null, key: string): string | null {
  switch (protocol) {
    case null:
    case 'osmand':
      return /^[\x21-\x7e]{6,128}$/.test(key) ? null : 'must be 6 to 128 printable characters (no spaces) for a phone on the OsmAnd port';
    case 'egts':
      if (/^\d{15}$/.test(key)) return null;
      return /^(0|[1-9]\d{0,9})$/.test(key) && Number(key) <= 4_294_967_295
        ? null
        : 'must be the terminal or object id in decimal (0 to 4294967295, no leading zeros) or a 15-digit IMEI for EGTS';
    case 'wialonIps':
      // The login is `#L#id;password`: the id ends at the first `;`, and `#` frames the message.
      return /^[\x21-\x7e]{1,128}$/.test(key) && !/[;#]/.test(key) ? null : 'must be 1 to 128 printable characters without ";" or "#" for Wialon IPS';
    case 'teltonika':
      return /^\d{15}$/.test(key) ? null : "must be the terminal's 15-digit IMEI for Teltonika";
  }
}

/** Why a password cannot be set on this protocol's device, or null. */
export function devicePasswordProblem(protocol: DeviceProtocol | null, password: string): string | null {
  if (protocol === null || !passwordProtocols.includes(protocol)) {
    return `only a device whose deviceProtocol is ${passwordProtocols.join(' or ')} can have a password (its login carries one)`;
  }
  if (!/^[\x21-\x7e]{1,32}$/.test(password)) return 'must be 1 to 32 printable characters (no spaces)';
  if (protocol === 'wialonIps' && (/[;#]/.test(password) || password === 'NA')) return 'must not contain ";" or "#" nor be "NA" (no password) for Wialon IPS';
  return null;
}

/** Whether a key registered for `registered` is heard by `listener`'s listener: a key without a protocol is heard by every one. */
export function heardBy(registered: DeviceProtocol | null, listener: DeviceProtocol): boolean {
  return registered === null || registered === listener;
}

// scrypt as for users' passwords but at half the memory: a fleet's terminals log in again together
// after an outage, and verified passwords are remembered (`verifyDevicePassword`) besides.
const SCRYPT: ScryptOptions = { N: 2 ** 14, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => scrypt(password, salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashDevicePassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Hash → SHA-256 of the password that matched it: a terminal reconnecting costs no second scrypt. */
const verified = new Map<string, Buffer>();
const MAX_VERIFIED = 10_000;

export async function verifyDevicePassword(password: string, stored: string): Promise<boolean> {
  const digest = createHash('sha256').update(password).digest();
  const known = verified.get(stored);
  if (known) return timingSafeEqual(known, digest);
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p), maxmem: SCRYPT.maxmem });
  const expected = Buffer.from(key, 'base64url');
  const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
  if (matches) {
    if (verified.size >= MAX_VERIFIED) verified.clear();
    verified.set(stored, digest);
  }
  return matches;
}
