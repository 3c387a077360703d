import { isDeepStrictEqual } from 'node:util';

/** What an audit entry shows of a field's value that is a secret: that it is set, never what it is. */
export const REDACTED = '[redacted]';

/**
 * Fields whose values are secrets wherever they appear: passwords, tokens, device keys, signing
 * and TOTP secrets, recovery codes. Matched on the field's name, in nested objects too.
 */
const SECRET_FIELD = /^(?!has|is)\w*(password|secret|token|devicekey|recoverycode|apikey)|^key$/i;

export type FieldChange = { before: unknown; after: unknown };
export type AuditChanges = Record<string, FieldChange>;

/**
 * `{field: {before, after}}` for the fields that differ between two states of an object (a
 * creation has no `before`, a deletion no `after`), secrets redacted: a changed secret shows as
 * changed, with neither value.
 */
export function changesBetween(before: object | null, after: object | null): AuditChanges {
  const previous = (before ?? {}) as Record<string, unknown>;
  const next = (after ?? {}) as Record<string, unknown>;
  const changes: AuditChanges = {};
  for (const field of new Set([...Object.keys(previous), ...Object.keys(next)])) {
    // A field absent on one side counts as null: a creation lists only the fields it sets.
    const was = previous[field] ?? null;
    const is = next[field] ?? null;
    if (isDeepStrictEqual(was, is)) continue;
    changes[field] = SECRET_FIELD.test(field)
      ? { before: was === null ? null : REDACTED, after: is === null ? null : REDACTED }
      : { before: redacted(was), after: redacted(is) };
  }
  return changes;
}

/** A value with every secret field inside it replaced. */
export function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).map(([field, inner]) => [
      field,
      SECRET_FIELD.test(field) && inner !== null && inner !== undefined ? REDACTED : redacted(inner),
    ]),
  );
}
