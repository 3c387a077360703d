import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp, createServices } from '../../src/app.js';
import { migrate, openDatabase, type Database } from '../../src/store/database.js';
import { Client, createEmployee, LOCATIONS } from '../helpers/server.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';

const T0 = Date.parse('2026-05-20T06:00:00Z');
const BASE = '/v6/api/globalPositioningManagement';
const DEG_PER_M = 1 / (111_320 * Math.cos((55.75 * Math.PI) / 180));

/** Two hours of a delivery van: short trips, stops, speeding, a refuelling; a fix every 10 s. */
function vanDay(subscriberID: number) {
  const fixes = [];
  let lon = 37.6;
  let fuel = 60;
  for (let i = 0; i < 720; i++) {
    const minute = Math.floor(i / 6);
    const phase = minute % 20; // 12 minutes driving, 8 parked
    const driving = phase < 12;
    const speed = driving ? (phase === 5 ? 95 : 50) : 0;
    if (driving) lon += ((speed / 3.6) * 10) * DEG_PER_M;
    fuel += driving ? -0.02 : minute === 33 ? 4 : 0;
    fixes.push({
      subscriberID,
      locationDate: new Date(T0 + i * 10_000).toISOString(),
      latitude: 55.75,
      longitude: lon,
      velocity: speed,
      ignition: driving,
      fuelLevel: Math.round(fuel * 10) / 10,
    });
  }
  return fixes;
}

async function snapshot(api: Client, id: number) {
  const period = 'dateFrom=2026-05-20T00:00:00Z&dateTo=2026-05-21T00:00:00Z';
  // Ids follow the order tracks were first written, which late batches change; compare by time.
  const tracks = (await api.get(`${BASE}/tracks?subscriberIDs=${id}&${period}`)).body
    .map((t: any) => ({ ...t, trackID: 0, subscriberID: 0 }))
    .sort((x: any, y: any) => x.startDate.localeCompare(y.startDate));
  const events = (await api.get(`${BASE}/events?subscriberIDs=${id}&startDate=2026-05-20T00:00:00Z&finishDate=2026-05-21T00:00:00Z`)).body.data[0]?.events ?? [];
  const stats = [];
  for (const interval of [1, 2]) stats.push((await api.get(`${BASE}/statistics?subscriberIDs=${id}&interval=${interval}&${period}`)).body.data[0]?.statistics);
  return { tracks, events, stats };
}

for (const dialect of dialects.filter((d) => d === 'postgres')) {
  describe(`two servers on one ${dialect} database`, () => {
    let shared: TestDatabase;
    let second: Database;
    let apis: Client[];
    const apps: { close(): Promise<unknown> }[] = [];

    before(async () => {
      shared = await freshDatabase(dialect);
      second = await openDatabase({ url: shared.url, poolSize: 5 });
      await migrate(second);
      const first = createServices(shared.database, () => T0 + 86_400_000);
      const created = await first.accounts.createAccount({ name: 'Fleet', timeZone: 'Europe/Moscow' });
      apis = [];
      for (const [database, services] of [
        [shared.database, first],
        [second, createServices(second, () => T0 + 86_400_000)],
      ] as const) {
        const app = await buildApp({ database, services, config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 1 << 24 } });
        await app.listen({ port: 0, host: '127.0.0.1' });
        apps.push(app);
        apis.push(new Client(`http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, created.token));
      }
    });
    after(async () => {
      for (const app of apps) await app.close();
      await second.close();
      await shared.drop();
    });

    it('gives the same tracks, events and statistics as one server, whichever server takes which batch', async () => {
      const [a, b] = apis as [Client, Client];
      const alone = await createEmployee(a, { name: 'Alone', vehicleSettings: { speedLimit: 80, fuelFillThreshold: 3 } });
      const shared = await createEmployee(a, { name: 'Shared', vehicleSettings: { speedLimit: 80, fuelFillThreshold: 3 } });
      const day = vanDay(alone);
      for (let i = 0; i < day.length; i += 60) assert.equal((await a.post(LOCATIONS, day.slice(i, i + 60))).status, 201);

      // The same day for the other van, in batches sent at once to both servers: they commit in any order.
      const batches = [];
      for (let i = 0; i < day.length; i += 60) batches.push(day.slice(i, i + 60).map((f) => ({ ...f, subscriberID: shared })));
      const answers = await Promise.all(batches.map((batch, i) => (i % 2 === 0 ? a : b).post(LOCATIONS, batch)));
      assert.ok(answers.every((r) => r.status === 201));

      const expected = await snapshot(a, alone);
      assert.ok(expected.tracks.length >= 5, `fixture: ${expected.tracks.length} tracks`);
      assert.ok(expected.events.some((e: any) => e.type === 4) && expected.events.some((e: any) => e.type === 1), 'fixture: speeding and a filling');
      assert.deepEqual(await snapshot(b, shared), expected);
      assert.deepEqual(await snapshot(a, shared), expected);
    });
  });
}
