import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Fix } from '../../src/positioning/fix.js';
import { startOsmAnd, type OsmAndListener } from '../helpers/osmand.js';
import { createEmployee, LOCATIONS, SUBSCRIBERS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { createRule, signalsOf, T0 } from '../signals/signal-api.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
const DEVICES = 40;
const FIXES_PER_DEVICE = 5;

function fix(subscriberId: number, timeMs: number, extra: Partial<Fix> = {}): Fix {
  return {
    subscriberId, locationDateMs: timeMs, isValid: true, latitude: 55.75 + (timeMs % 100_000) * 1e-9, longitude: 37.6, angle: 0, velocityKmh: 0,
    fuelLevel: null, ignition: null, externalPower: null, odometer: null, engineHours: null, sensors: null, ...extra,
  };
}

/**
 * The device paths' group commit (DESIGN: one ingest queue per process): what arrives while a
 * transaction runs is committed together in the next one, each sender answered after that commit.
 */
/** A tracker frame through the ingest port, resolved once its commit is durable (when a listener acknowledges it). */
async function stored(server: TestServer, fixes: Fix[]): Promise<void> {
  const { ingest } = server.services.positioning;
  await ingest.durable(await ingest.submit({ source: 'tracker', accountId: server.account.id, fixes }));
}

for (const dialect of dialects) {
  describe(`the ingest queue on ${dialect}`, () => {
    let server: TestServer;
    let osmand: OsmAndListener;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
      osmand = await startOsmAnd(server.services, () => T0 + 12 * HOUR);
    });
    after(async () => {
      await osmand?.close();
      await server?.close();
    });

    const storedOf = async (subscriberId: number) =>
      server.database.db.selectFrom('locations').select(['id', 'location_date']).where('subscriber_id', '=', subscriberId).orderBy('id').execute();

    it('takes many concurrent single fixes from many devices: each stored once, each acknowledged after its commit', async () => {
      const devices: { id: number; key: string }[] = [];
      for (let d = 0; d < DEVICES; d++) {
        const key = `burst-${dialect}-${d}`;
        devices.push({ id: await createEmployee(server.api, { name: `Phone ${d}`, deviceKey: key }), key });
      }
      const seconds = (d: number, k: number) => Math.floor((T0 + 11 * HOUR) / 1000) + k * 10 + d;
      // Every device sends its fixes one after another; all devices at once.
      await Promise.all(
        devices.map(async (device, d) => {
          for (let k = 0; k < FIXES_PER_DEVICE; k++) {
            const sent = await osmand.send('GET', `/?id=${device.key}&lat=55.7${d}&lon=37.6${k}&timestamp=${seconds(d, k)}`);
            assert.equal(sent.status, 200, sent.text);
            // Acknowledged means committed: a read from elsewhere sees the fix now.
            const stored = await storedOf(device.id);
            assert.ok(stored.some((row) => row.location_date === seconds(d, k) * 1000), `fix ${k} of device ${d} is stored once acknowledged`);
          }
        }),
      );
      for (const [d, device] of devices.entries()) {
        const stored = await storedOf(device.id);
        assert.deepEqual(stored.map((row) => row.location_date), Array.from({ length: FIXES_PER_DEVICE }, (_, k) => seconds(d, k) * 1000), `device ${d}`);
      }
    });

    it('keeps the order of one device’s fixes, in arrival order, across groups', async () => {
      const car = await createEmployee(server.api, { name: 'Ordered' });
      const other = await createEmployee(server.api, { name: 'Neighbour' });
      const times = Array.from({ length: 30 }, (_, i) => T0 + 10 * HOUR + i * 10_000);
      // Submitted in one go: the first is committed alone at once, the rest together after it.
      await Promise.all(times.flatMap((t) => [stored(server, [fix(car, t)]), stored(server, [fix(other, t)])]));
      assert.deepEqual((await storedOf(car)).map((row) => row.location_date), times);
      assert.deepEqual((await storedOf(other)).map((row) => row.location_date), times);
    });

    it('a bad fix among good ones fails alone, whether refused up front or failing the transaction', async () => {
      const good = [await createEmployee(server.api, { name: 'Good 1' }), await createEmployee(server.api, { name: 'Good 2' })];
      const gone = await createEmployee(server.api, { name: 'Gone' });
      assert.equal((await server.api.delete(`${SUBSCRIBERS}/${gone}`)).status, 204);
      const stranger = await server.newAccount();
      const foreign = await createEmployee(stranger.api, { name: 'Someone else’s' });
      const t = T0 + 9 * HOUR;
      const ingest = (f: Fix) => stored(server, [f]);
      const outcomes = await Promise.allSettled([
        ingest(fix(good[0]!, t)),
        ingest(fix(good[0]!, t + 10_000)),
        ingest(fix(gone, t)),
        ingest(fix(good[1]!, t)),
        ingest(fix(foreign, t)),
        // The database refuses it (latitude null): a stand-in for whatever fails a transaction.
        ingest(fix(good[1]!, t + 10_000, { latitude: null as unknown as number })),
        ingest(fix(good[1]!, t + 20_000)),
      ]);
      assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'rejected', 'fulfilled']);
      assert.deepEqual((await storedOf(good[0]!)).map((row) => row.location_date), [t, t + 10_000]);
      assert.deepEqual((await storedOf(good[1]!)).map((row) => row.location_date), [t, t + 20_000]);
      assert.deepEqual(await storedOf(gone), []);
      assert.deepEqual(await storedOf(foreign), []);

      // The same over the listener and the API: an unknown device key and an unknown subscriber.
      const key = `good-key-${dialect}`;
      const phone = await createEmployee(server.api, { name: 'Phone', deviceKey: key });
      const seconds = Math.floor((T0 + 9 * HOUR) / 1000);
      const answers = await Promise.all([
        osmand.send('GET', `/?id=${key}&lat=55.75&lon=37.6&timestamp=${seconds}`),
        osmand.send('GET', `/?id=no-such-key-${dialect}&lat=55.75&lon=37.6&timestamp=${seconds}`),
        osmand.send('GET', `/?id=${key}&lat=55.75&lon=37.6&timestamp=${seconds + 10}`),
        server.api.post(LOCATIONS, [{ subscriberID: 999_999, locationDate: '2026-05-20T15:00:00Z', latitude: 55.75, longitude: 37.6 }]),
      ]);
      assert.deepEqual(answers.map((a) => a.status), [200, 400, 200, 404]);
      assert.equal((answers[3]!.body as any).code, 12);
      assert.deepEqual(Object.keys((answers[3]!.body as any).validationErrors), ['[0].subscriberID']);
      assert.equal((await storedOf(phone)).length, 2);
    });

    it('a device key moved to another employee is checked in the transaction, not taken from a stale memory', async () => {
      const key = `moving-key-${dialect}`;
      const first = await createEmployee(server.api, { name: 'First holder', deviceKey: key });
      const second = await createEmployee(server.api, { name: 'Second holder' });
      const seconds = Math.floor((T0 + 8 * HOUR) / 1000);
      assert.equal((await osmand.send('GET', `/?id=${key}&lat=55.75&lon=37.6&timestamp=${seconds}`)).status, 200);
      // Another server moves the key (straight in the database): this one still remembers the first holder.
      await server.database.db.updateTable('subscribers').set({ device_key: null }).where('id', '=', first).execute();
      await server.database.db.updateTable('subscribers').set({ device_key: key }).where('id', '=', second).execute();
      assert.equal((await osmand.send('GET', `/?id=${key}&lat=55.75&lon=37.6&timestamp=${seconds + 10}`)).status, 200);
      assert.equal((await storedOf(first)).length, 1);
      assert.equal((await storedOf(second)).length, 1);
    });

    it('frames committed together: a frame inside time an earlier frame of the group brought fires nothing', async () => {
      const car = await createEmployee(server.api, { name: 'Framed' });
      const rule = await createRule(server.api, { name: 'Power', kind: 7, subscriberIDs: [car] });
      const t = T0 + 7 * HOUR;
      const power = (on: boolean) => ({ externalPower: on });
      const ingest = (fixes: Fix[]) => stored(server, fixes);
      // The first frame is committed alone; the next two wait and share a transaction.
      await Promise.all([
        ingest([fix(car, t, power(true))]),
        ingest([fix(car, t + 20 * MINUTE, power(true)), fix(car, t + 21 * MINUTE, power(false))]),
        // A frame from the tracker's older buffer, 10 minutes before what the previous frame brought.
        ingest([fix(car, t + 10 * MINUTE, power(false)), fix(car, t + 11 * MINUTE, power(true))]),
      ]);
      const fired = (await signalsOf(server, rule)).map((b) => b.signalDate);
      assert.deepEqual(fired, ['2026-05-20T16:21:00+03:00']);
    });
  });
}
