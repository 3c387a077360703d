/**
 * Whether a database error is a unique-constraint violation on an index covering `column`.
 * SQLite names the columns in its message; PostgreSQL names the index in `constraint`.
 */
export function isUniqueViolation(error: unknown, column: string, indexName: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, constraint } = error as { code?: string; message?: string; constraint?: string };
  if (code === '23505') return constraint === indexName;
  if (code === 'SQLITE_CONSTRAINT_UNIQUE') return message?.includes(`.${column}`) ?? false;
  return false;
}
