import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { checkIdHeadroom, highestIdSequence, ID_LIMIT, IdHeadroomError } from '../../src/store/id-headroom.js';
import type { Database } from '../../src/store/database.js';
import { createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { DAY_MS, drivingDay, postFixes } from './growth-fixtures.js';

const NOW = Date.parse('2026-05-20T12:00:00Z');
const TODAY = Date.parse('2026-05-20T00:00:00Z');
/** Far past 2^32 and 2^40, near the last id JSON carries exactly: 2^52 + a little, distinct per table. */
const START = 2 ** 52 + 12_345;
const TRACKS = '/v6/api/globalPositioningManagement/tracks';

/** Moves every id sequence of the database to START + 1000·i: the next row of each table gets an id past it. */
async function moveSequences(database: Database, to: (i: number) => number): Promise<string[]> {
  if (database.dialect === 'postgres') {
    const { rows } = await sql<{ name: string }>`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = current_schema() ORDER BY 1`.execute(database.db);
    for (const [i, { name }] of rows.entries()) await sql`SELECT setval(${name}::regclass, ${to(i)})`.execute(database.db);
    return rows.map((r) => r.name);
  }
  const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%AUTOINCREMENT%' ORDER BY 1`.execute(database.db);
  for (const [i, { name }] of rows.entries()) {
    await sql`DELETE FROM sqlite_sequence WHERE name = ${name}`.execute(database.db);
    await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${name}, ${to(i)})`.execute(database.db);
  }
  return rows.map((r) => r.name);
}

/** Ids as the database holds them, in decimal, so that no JavaScript number stands between. */
async function idsAsText(database: Database, table: 'locations' | 'tracks'): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`SELECT CAST(id AS TEXT) AS id FROM ${sql.table(table)} ORDER BY id DESC`.execute(database.db);
  return rows.map((r) => r.id);
}

/** The `"<field>": <digits>` values of a JSON text, as written (JSON.parse would hide a rounded one). */
const jsonIds = (text: string, field: string) => [...text.matchAll(new RegExp(`"${field}":(\\d+)`, 'g'))].map((m) => m[1]!);

for (const dialect of dialects) {
  describe(`64-bit ids on ${dialect}`, () => {
    let server: TestServer;
    let vehicle: number;

    before(async () => {
      server = await startServer(dialect, { now: NOW });
      const moved = await moveSequences(server.database, (i) => START + 1000 * i);
      assert.ok(moved.length >= 10, moved.join());
      vehicle = await createEmployee(server.api, { name: 'Truck 2^52' });
      await postFixes(server.api, [...drivingDay(vehicle, TODAY - 2 * DAY_MS, 37.6).fixes, ...drivingDay(vehicle, TODAY - DAY_MS, 37.7).fixes]);
    });
    after(() => server.close());

    it('answers ids past 2^52 exactly in JSON: employees, fixes, tracks', async () => {
      assert.ok(vehicle > 2 ** 52, String(vehicle));
      const listed = await server.api.get(`${LOCATIONS}?subscriberIDs=${vehicle}&count=1000&dateFrom=2026-05-17T00:00:00Z`);
      assert.equal(listed.status, 200);
      const stored = await idsAsText(server.database, 'locations');
      assert.equal(stored.length, 160);
      assert.ok(BigInt(stored.at(-1)!) > 2n ** 52n);
      assert.deepEqual(jsonIds(listed.text, 'locationID'), stored);
      assert.deepEqual(jsonIds(listed.text, 'subscriberID')[0], String(vehicle));

      const tracks = await server.api.get(`${TRACKS}?subscriberIDs=${vehicle}&dateFrom=2026-05-17T00:00:00Z`);
      assert.deepEqual(jsonIds(tracks.text, 'trackID'), (await idsAsText(server.database, 'tracks')).reverse());
      const [track] = tracks.body;
      assert.equal((await server.api.get(`${TRACKS}/${track.trackID}`)).body.trackID, track.trackID);
    });

    it('finds and pages by those ids', async () => {
      const stored = await idsAsText(server.database, 'locations');
      const one = await server.api.get(`${LOCATIONS}/${stored[5]}`);
      assert.equal(one.status, 200);
      assert.equal(jsonIds(one.text, 'locationID')[0], stored[5]);
      const page = await server.api.get(`${LOCATIONS}?subscriberIDs=${vehicle}&count=3&lastLocationID=${stored[5]}&dateFrom=2026-05-17T00:00:00Z`);
      assert.deepEqual(jsonIds(page.text, 'locationID'), stored.slice(6, 9));
    });

    it('refuses to start once a sequence comes within 2^43 of 2^53, and never rounds a larger id', async () => {
      await checkIdHeadroom(server.database);
      await moveSequences(server.database, (i) => (i === 0 ? ID_LIMIT + 1 : START));
      assert.ok((await highestIdSequence(server.database))!.lastId > ID_LIMIT);
      await assert.rejects(checkIdHeadroom(server.database), (error: Error) => error instanceof IdHeadroomError && /within 2\^43 of 2\^53/.test(error.message));
      if (dialect === 'postgres') {
        await assert.rejects(sql`SELECT CAST('9007199254740993' AS bigint) AS n`.execute(server.database.db), /beyond 2\^53/);
        const exact = await sql<{ n: number }>`SELECT CAST('9007199254740991' AS bigint) AS n`.execute(server.database.db);
        assert.equal(exact.rows[0]!.n, Number.MAX_SAFE_INTEGER);
      }
      await moveSequences(server.database, () => START + 100_000);
    });
  });
}
