import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { migrate, type Database } from '../../src/store/database.js';
import { listMapObjects } from '../../src/geozones/map-object-store.js';
import { databaseMigratedTo, dialects, type TestDatabase } from '../helpers/stores.js';

/** Migration 0015 writes the folded address of the map objects stored before it, so they are found as new ones are. */
for (const dialect of dialects) {
  describe(`migration 0015 folds existing map objects' addresses (${dialect})`, () => {
    let store: TestDatabase;
    let database: Database;
    before(async () => {
      store = await databaseMigratedTo(dialect, '0011-map-object-places');
      database = store.database;
    });
    after(() => store.drop());

    it('finds rows written before it by a Cyrillic word in any case', async () => {
      const run = (text: string) => sql.raw(text).execute(database.db);
      await run(`INSERT INTO accounts (id, name, time_zone, sms_enabled, created_at) VALUES (1, 'A', 'UTC', 0, 0), (2, 'B', 'UTC', 0, 0)`);
      await run(`INSERT INTO map_objects (id, account_id, name, address, latitude, longitude, external_id, comment, created_at, updated_at) VALUES
                 (1, 1, 'a', 'Санкт-Петербург, ПРИМОРСКИЙ пр., д. 1', 59.9, 30.2, NULL, '', 0, 0),
                 (2, 1, 'b', '', 59.9, 30.2, NULL, '', 0, 0),
                 (3, 2, 'c', 'Приморский пр., 5', 59.9, 30.2, NULL, '', 0, 0)`);

      await migrate(database);

      const found = async (accountId: number, words: string[]) => (await listMapObjects(database.db, accountId, { addressWords: words })).map((row) => row.id);
      assert.deepEqual(await found(1, ['приморский']), [1]);
      assert.deepEqual(await found(1, ['санкт', 'д', '1']), [1]);
      assert.deepEqual(await found(2, ['приморский']), [3], 'each account its own');
      assert.deepEqual(await found(1, ['пр', '5']), []);
    });
  });
}
