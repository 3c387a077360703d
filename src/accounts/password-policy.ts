/**
 * The one rule for workspace passwords: the bootstrap `admin` password (LOKATOR_BOOTSTRAP_PASSWORD),
 * users the operator adds and passwords users change. NIST SP 800-63B-4 §3.1.1.2 asks at least
 * 15 characters of a password that is the only factor, and no composition rules; length is counted
 * in Unicode code points, as JSON Schema's `minLength` counts, so the schema and this check agree.
 * API tokens are not passwords: they keep their own rule (config.ts).
 */
export const PASSWORD_MIN_LENGTH = 15;
/** scrypt takes any length; the cap only bounds the work one request can ask for. */
export const PASSWORD_MAX_LENGTH = 1000;

/** What is wrong with `password` as a new password, or null when it is acceptable. Never echoes it. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (length > PASSWORD_MAX_LENGTH) return `must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return null;
}
