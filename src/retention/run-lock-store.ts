import { sql } from 'kysely';
import type { Db } from '../store/database.js';

/**
 * One retention run at a time across every server on one PostgreSQL: a session advisory lock,
 * taken and given back on the one connection the run holds. It serves every account.
 */
const RUN_LOCK = 'lokator:retention';

/** Takes the run's lock if no other server holds it; whether it was taken. */
export async function tryLockRun(connection: Db): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`SELECT pg_try_advisory_lock(hashtext(${RUN_LOCK})) AS locked`.execute(connection);
  return rows[0]?.locked === true;
}

export async function unlockRun(connection: Db): Promise<void> {
  await sql`SELECT pg_advisory_unlock(hashtext(${RUN_LOCK}))`.execute(connection);
}
