/**
 * The IANA name of a time zone as Intl knows it (`europe/moscow` → `Europe/Moscow`), or null when
 * it is not one: an offset such as `+03:00` is refused, since it does not follow summer time.
 */
export function canonicalTimeZone(name: string): string | null {
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved === 'UTC' || /^[A-Za-z]+\/[A-Za-z0-9_+\-/]+$/.test(resolved) ? resolved : null;
}
