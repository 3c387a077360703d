import { randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import type { Db, Tx } from '../store/database.js';
import { hashToken } from './secrets.js';
import { takeTotpStep, useRecoveryCode } from './two-factor-store.js';

/** RFC 6238 as authenticator apps read it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30;
const DIGITS = 6;
/** A code of the step before or after is taken too: phones' clocks drift. */
const WINDOW_STEPS = 1;
export const RECOVERY_CODE_COUNT = 10;

/** A new TOTP secret (160 random bits, as RFC 4226 recommends), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://` URI an authenticator app reads from the QR code. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return totpOf(secret, issuer, label).toString();
}

/** The time step a code belongs to, or null when it is no code of the secret around `nowMs`. */
export function totpStepOf(secret: string, code: string, nowMs: number): number | null {
  const token = code.replace(/\s+/g, '');
  if (!new RegExp(`^\\d{${DIGITS}}$`).test(token)) return null;
  const delta = totpOf(secret).validate({ token, timestamp: nowMs, window: WINDOW_STEPS });
  return delta === null ? null : Math.floor(nowMs / 1000 / PERIOD_SECONDS) + delta;
}

/** Ten codes of 10 letters and digits, grouped `xxxxx-xxxxx` to be read off paper. */
export function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = [...randomBytes(10)].map((byte) => alphabet[byte % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** Recovery codes are stored as their SHA-256 (they are random, like tokens); typed spaces, dashes and case do not matter. */
export function recoveryCodeHash(code: string): string {
  return hashToken(`recovery:${code.toLowerCase().replace(/[\s-]+/g, '')}`);
}

/**
 * Checks a second-factor code of a user whose TOTP secret is `secret`: a current TOTP code not used
 * before, or an unused recovery code (then used up). What it was, or null.
 */
export async function checkSecondFactor(
  executor: Db | Tx,
  user: { accountId: number; userId: number; secret: string },
  code: string,
  nowMs: number,
): Promise<'totp' | 'recovery' | null> {
  const step = totpStepOf(user.secret, code, nowMs);
  if (step !== null) return (await takeTotpStep(executor, user.accountId, user.userId, step)) ? 'totp' : null;
  if (code.trim().length < 10 || code.length > 64) return null;
  return (await useRecoveryCode(executor, user.accountId, user.userId, recoveryCodeHash(code), nowMs)) ? 'recovery' : null;
}

function totpOf(secret: string, issuer = 'Lokator', label = 'Lokator'): TOTP {
  return new TOTP({ issuer, label, algorithm: 'SHA1', digits: DIGITS, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });
}
