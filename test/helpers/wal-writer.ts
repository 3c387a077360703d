/**
 * A child process for test/store/wal-crash.test.ts: writes transaction after transaction through
 * the store (openDatabase on an SQLite file, so its write-ahead log is checkpointed and restarted
 * on the checkpoint thread) and prints `ack <n>` once transaction n has been acknowledged, until
 * it is killed.
 *
 *   tsx test/helpers/wal-writer.ts <database file>
 */
import { sql } from 'kysely';
import { openDatabase } from '../../src/store/database.js';

const database = await openDatabase({ url: process.argv[2]! });
database.sqlite!.exec('CREATE TABLE IF NOT EXISTS written (n INTEGER NOT NULL, part INTEGER NOT NULL, filler TEXT NOT NULL)');
const filler = 'x'.repeat(1000);
for (let n = 0; ; n++) {
  // About five pages of log per transaction: the log passes its restart mark every few hundred.
  await database.transaction(async (tx) => {
    for (let part = 0; part < 20; part++) await sql`INSERT INTO written (n, part, filler) VALUES (${n}, ${part}, ${filler})`.execute(tx);
  });
  process.stdout.write(`ack ${n}\n`);
}
