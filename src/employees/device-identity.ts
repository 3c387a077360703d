import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { deviceProtocolNamed, deviceProtocols, type DeviceProtocol } from '../devices/protocols.js';

/**
 * Which listener hears an employee's device key, what the key must look like there, and the
 * terminal's optional password: each protocol's definition says (src/devices/protocols.ts). The
 * spelling of the protocols is the API's and the workspace's.
 */
export type { DeviceProtocol };

/** Protocols whose login carries a password (Wialon IPS `#L#`, EGTS authentication); the others carry none. */
export const passwordProtocols: readonly DeviceProtocol[] = deviceProtocols.filter((protocol) => protocol.password !== null).map((protocol) => protocol.name);

/**
 * Why a device key does not suit its protocol, or null when it does. Null protocol (a phone, as
 * before protocols were named) follows the OsmAnd port's rule: the key is the phone's only
 * credential. A tracker's key is the identifier its protocol sends.
 */
export function deviceKeyProblem(protocol: DeviceProtocol | null, key: string): string | null {
  return deviceProtocolNamed(protocol ?? 'osmand').deviceKey.problem(key);
}

/** Why a password cannot be set on this protocol's device, or null. */
export function devicePasswordProblem(protocol: DeviceProtocol | null, password: string): string | null {
  const rule = protocol === null ? null : deviceProtocolNamed(protocol).password;
  if (rule === null) return `only a device whose deviceProtocol is ${passwordProtocols.join(' or ')} can have a password (its login carries one)`;
  return rule.problem(password);
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
