/** The face of accounts: what other modules may use of it (see .dependency-cruiser.mjs). */
export type { Account, AccountLocale, AccountService, Principal } from './account-service.js';
export { ACCOUNT_LOCALES } from './account-service.js';
export { CSRF_HEADER, SESSION_COOKIE } from './api-auth.js';
export { SESSION_IDLE_MS, SessionService } from './session-service.js';
export type { Session } from './session-service.js';
export { hashPassword, verifyPassword } from './secrets.js';
export { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from './password-policy.js';
export { cutoffMs, DAY_MS, DERIVED_RETENTION_FACTOR, MAX_RETENTION_DAYS, retentionOf } from './retention-policy.js';
export type { Retention } from './retention-policy.js';
