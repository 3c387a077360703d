import { sql } from 'kysely';

/** How a statement's text starts when it is to be kept prepared on PostgreSQL (see `PREPARED`). */
export const PREPARED_MARK = '/* prepared */ ';

/**
 * Put first in a statement run for every ingest group (`sql`${PREPARED}SELECT …``): on PostgreSQL
 * each connection then parses and plans it once and keeps it (database.ts). Only for statements
 * whose text is the same whatever their values (lists as one array parameter, see idTable) and
 * whose best plan does not depend on the values, since PostgreSQL may settle on one generic plan.
 * SQLite ignores the comment.
 */
export const PREPARED = sql.raw(PREPARED_MARK);
