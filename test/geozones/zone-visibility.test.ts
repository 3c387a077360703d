import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { toZoneColumns } from '../../src/geozones/zone-store.js';
import { bumpZoneVersion } from '../../src/geozones/zone-version-store.js';
import { openDatabase, type Database } from '../../src/store/database.js';
import { Client } from '../helpers/server.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';
import { bounds, createZone, square, ZONES, zonesAt } from './geozone-fixtures.js';

interface Instance {
  app: FastifyInstance;
  services: Services;
  database: Database;
}

async function startInstance(database: Database): Promise<Instance> {
  const services = createServices(database);
  const app = await buildApp({ database, services, config: { LOKATOR_ADMIN_TOKEN: undefined, INGEST_BODY_LIMIT_BYTES: 1 << 20 } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, services, database };
}

const baseUrl = (instance: Instance) => `http://127.0.0.1:${(instance.app.server.address() as AddressInfo).port}`;

function withinSeconds<T>(seconds: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${seconds} s (a deadlock?)`)), seconds * 1000);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

for (const dialect of dialects) {
  describe(`zone changes and the next lookup, two servers on one ${dialect} database`, () => {
    let store: TestDatabase;
    let a: Instance;
    let b: Instance;
    let apiA: Client;
    let apiB: Client;
    let accountId: number;

    before(async () => {
      store = await freshDatabase(dialect);
      // The second server opens the same SQLite file, or connects to the same PostgreSQL database.
      const second = await openDatabase({ url: store.url, poolSize: 5 });
      a = await startInstance(store.database);
      b = await startInstance(second);
      const { account, token } = await a.services.accounts.createAccount({ name: 'Shared', timeZone: 'UTC' });
      accountId = account.id;
      apiA = new Client(baseUrl(a), token);
      apiB = new Client(baseUrl(b), token);
    });
    after(async () => {
      await a.app.close();
      await b.app.close();
      await b.database.close();
      await store.drop();
    });

    it('shows every change made through one server to the very next lookup on the other, both ways', async () => {
      assert.deepEqual(await zonesAt(apiB, 5, 5), [], 'B builds its (empty) index first');
      const id = await createZone(apiA, 'Moving', square(0, 0, 10));
      assert.deepEqual(await zonesAt(apiB, 5, 5), [id]);
      assert.equal((await apiB.patch(`${ZONES}/${id}`, { bounds: bounds(square(20, 20, 10)) })).status, 204);
      assert.deepEqual(await zonesAt(apiA, 5, 5), []);
      assert.deepEqual(await zonesAt(apiA, 25, 25), [id]);
      await apiA.patch(`${ZONES}/${id}`, { enabled: false });
      assert.deepEqual(await zonesAt(apiB, 25, 25), []);
      await apiB.patch(`${ZONES}/${id}`, { enabled: true, name: 'Renamed' });
      assert.deepEqual((await apiA.get(`${ZONES}/mapObjectCoordinates?latitude=25&longitude=25`)).body.zones[0].name, 'Renamed');
      await apiA.delete(`${ZONES}/${id}`);
      assert.deepEqual(await b.services.geozones.lookup.findZonesContaining(accountId, 25, 25), [], 'in-process, as the pipeline asks');
      assert.deepEqual(await zonesAt(apiB, 25, 25), []);
    });

    it('rebuilds by re-reading only the zones that changed', async () => {
      const kept = await createZone(apiA, 'Kept', square(40, 40, 1));
      const edited = await createZone(apiA, 'Edited', square(40, 40, 1));
      const lookup = b.services.geozones.lookup;
      const [keptBefore, editedBefore] = await lookup.findZonesContaining(accountId, 40.5, 40.5);
      await apiA.patch(`${ZONES}/${edited}`, { name: 'Edited again' });
      const [keptAfter, editedAfter] = await lookup.findZonesContaining(accountId, 40.5, 40.5);
      assert.equal(keptAfter?.zoneID, kept);
      assert.equal(keptAfter, keptBefore, 'the unchanged zone is the very same object: it was not read again');
      assert.notEqual(editedAfter, editedBefore);
      assert.equal(editedAfter?.name, 'Edited again');
    });

    it('looks up inside a caller’s transaction when given it (as the pipeline does), without waiting on itself', async () => {
      const id = await createZone(apiB, 'For the pipeline', square(-60, -40, 2));
      const found = await withinSeconds(
        5,
        a.database.transaction(async (tx) => (await a.services.geozones.lookup.indexFor(accountId, tx)).findZonesContaining(-39, -59)),
      );
      assert.deepEqual(found.map((z) => z.zoneID), [id]);
    });

    it('never shows a zone change that is not committed, and is not misled by one rolled back', async () => {
      const probe = { latitude: -10.5, longitude: 100.5 };
      const lookups: Promise<unknown>[] = [];
      const rollback = new Error('roll back');
      await assert.rejects(
        a.database.transaction(async (tx) => {
          const version = await bumpZoneVersion(tx, accountId);
          const zone = { zoneID: 0, name: 'Uncommitted', color: 0, enabled: true, zoneGroupID: null, comment: '', bounds: bounds(square(100, -11, 1)), customFieldsFormTemplateID: null, customFieldFormItems: [] };
          await tx.insertInto('zones').values({ ...toZoneColumns(zone), account_id: accountId, version, created_at: 0, updated_at: 0 }).execute();
          // Lookups that start while the change is in flight, on this server and the other.
          lookups.push(a.services.geozones.lookup.findZonesContaining(accountId, probe.latitude, probe.longitude));
          lookups.push(b.services.geozones.lookup.findZonesContaining(accountId, probe.latitude, probe.longitude));
          await new Promise((resolve) => setTimeout(resolve, 50));
          throw rollback;
        }),
        rollback,
      );
      assert.deepEqual(await withinSeconds(5, Promise.all(lookups)), [[], []]);
      // The next change reuses the rolled-back version number: both servers must still see it.
      const id = await createZone(apiA, 'Committed', square(100, -11, 1));
      assert.deepEqual(await zonesAt(apiA, probe.latitude, probe.longitude), [id]);
      assert.deepEqual(await zonesAt(apiB, probe.latitude, probe.longitude), [id]);
    });
  });
}
