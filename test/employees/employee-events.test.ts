import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { createServices } from '../../src/app.js';
import { OnlineSweeper } from '../../src/employees/online-sweeper.js';
import { startOsmAnd, type OsmAndListener } from '../helpers/osmand.js';
import { createEmployee, LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertMetadata, createRule, outboxSince, ruleOutbox, userIdOf, webhooks } from '../tasks/task-fixtures.js';

/** Wednesday 2026-05-20, 12:00 in Moscow. */
const T0 = Date.parse('2026-05-20T09:00:00Z');
const HOOK = 'http://127.0.0.1:9/hooks';
const MINUTE = 60_000;
/** ONLINE_TIMEOUT's default, and the staleness the stored arrival time may have (a tenth of it, at most 30 s). */
const TIMEOUT = 10 * MINUTE;
const GRANULARITY = 30_000;
const utc = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

/** Interface 2.9: the employee as the events carry it, without the device key and vehicle settings. */
const CARRIED_FIELDS = [
  'subscriberID', 'regionID', 'isActive', 'subscriberTariffTypeID', 'canTrack', 'canRequest', 'canSend', 'isOnline', 'isLocateEnabled',
  'isBlockEnabled', 'phone', 'icon', 'name', 'subscriberGroupID', 'externalSubscriberID', 'allowedOvertime', 'workScheduleID',
  'startLocationLatitude', 'startLocationLongitude', 'customFieldsFormTemplateID', 'customFieldFormItems', 'competences', 'zones',
  'mapObjects', 'subscriberTypeID', 'userBossID',
];
const carried = (employee: any) => {
  const { deviceKey: _k, deviceKeyHint: _hint, vehicleSettings: _v, deviceProtocol: _p, deviceType: _t, hasDevicePassword: _h, kind: _kind, vehiclePlate: _plate, vehicleModel: _model, deviceStatus: _s, ...rest } = employee;
  return rest;
};

/**
 * Employee change events (interface 6.5, CONTRACT §4): from the management API with the token's
 * user as initiator, and the isOnline flips of the presence agent (agentID 1) when fixes start
 * arriving and when they stop for ONLINE_TIMEOUT.
 */
for (const dialect of dialects) {
  describe(`employee change events on ${dialect}`, () => {
    let server: TestServer;
    let osmand: OsmAndListener;
    let userID: number;
    let watched: number;
    const rule: Record<string, number> = {};
    const outbox = ruleOutbox(() => server, rule);
    const drain = outbox.drain;
    /** The elements each of `names` received in one POST (and nobody else received anything). */
    const onlyTo = async (names: string[], count = 1): Promise<any[]> => {
      const got = await drain();
      assert.deepEqual([...got.keys()].sort(), [...names].sort(), 'the rules that fired');
      let first: any[] = [];
      for (const name of names) {
        const rows = got.get(name)!;
        assert.equal(rows.length, 1, `${name}: one POST`);
        assert.ok(Array.isArray(rows[0]!.payload) && rows[0]!.payload.length === count, `${name}: an array of ${count}`);
        for (const element of rows[0]!.payload) assert.equal(element.signalMetadataInfo.signalResultID, rule[name]);
        if (name === names[0]) first = rows[0]!.payload;
        else assert.deepEqual(rows[0]!.payload.map((e: any) => e.signalMetadataInfo.signalID), first.map((e) => e.signalMetadataInfo.signalID));
      }
      return first;
    };
    const employee = async (id: number) => (await server.api.get(`${SUBSCRIBERS}/${id}`)).body;
    const fix = (subscriberID: number, atMs: number) => ({
      subscriberID,
      locationDate: utc(atMs),
      latitude: 55.75,
      longitude: 37.61,
    });

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 });
      osmand = await startOsmAnd(server.services);
      userID = await userIdOf(server);
      watched = await createEmployee(server.api, { name: 'Watched', deviceKey: 'watched-phone' });
      const hook = (name: string) => ({ name, sendToApi: true, apiUrl: `${HOOK}/${name}` });
      rule.all = await createRule(server.api, { ...hook('all'), kind: 'employeeChanges' });
      rule.watched = await createRule(server.api, { ...hook('watched'), kind: 'employeeChanges', subscriberIDs: [watched] });
      rule.disabled = await createRule(server.api, { ...hook('disabled'), kind: 'employeeChanges', enabled: false });
      rule.weekend = await createRule(server.api, { ...hook('weekend'), kind: 'employeeChanges', weekdays: [6, 7] });
      rule.tasks = await createRule(server.api, { ...hook('tasks'), kind: 'taskChanges' });
      await outbox.begin();
    });
    after(async () => {
      await osmand.close();
      await server.close();
    });

    it('add: {subscriber, signalMetadataInfo}, the employee of 2.9 without its device key', async () => {
      const created = await server.api.post(SUBSCRIBERS, { name: 'New', deviceKey: 'secret-key-123', vehicleSettings: { speedLimit: 70 } });
      assert.equal(created.status, 201);
      const rows = webhooks(await outboxSince(server, outbox.mark));
      assert.ok(!rows.some((r) => JSON.stringify(r.payload).includes('secret-key-123')), 'the device key is a credential: never sent');
      const [element] = await onlyTo(['all']);
      assert.deepEqual(Object.keys(element), ['subscriber', 'signalMetadataInfo']);
      assert.deepEqual(Object.keys(element.subscriber).sort(), [...CARRIED_FIELDS].sort());
      assert.deepEqual(element.subscriber, carried(created.body));
      assertMetadata(element.signalMetadataInfo, {
        signalTypeID: 1,
        signalEntityTypeID: 2,
        entityID: created.body.subscriberID,
        initiator: { userID },
        signalDate: '2026-05-20T09:00:00Z',
        actualSignalDate: '2026-05-20T09:00:00Z',
      });
    });

    it('edit: changedValues holds the previous values of only the changed fields; rules for one employee hear only of them', async () => {
      const before = await employee(watched);
      server.setNow(T0 + MINUTE);
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${watched}`, { phone: '79001112233', name: 'Watched', zones: [{ zoneID: 4, bindingType: 1 }] })).status, 200);
      const [element] = await onlyTo(['all', 'watched']);
      assert.deepEqual(Object.keys(element), ['subscriber', 'changedValues', 'signalMetadataInfo']);
      assert.deepEqual(element.changedValues, { phone: '', zones: [] });
      assert.deepEqual(element.subscriber, carried(await employee(watched)));
      assertMetadata(element.signalMetadataInfo, {
        signalTypeID: 2,
        signalEntityTypeID: 2,
        entityID: watched,
        initiator: { userID },
        signalDate: '2026-05-20T09:01:00Z',
        actualSignalDate: '2026-05-20T09:01:00Z',
      });
      // PUT: the fields it resets to their defaults are changes too.
      assert.equal((await server.api.put(`${SUBSCRIBERS}/${watched}`, { name: 'Watched', canTrack: true })).status, 200);
      assert.deepEqual((await onlyTo(['all', 'watched']))[0].changedValues, { phone: '79001112233', zones: [{ zoneID: 4, bindingType: 1 }], canTrack: false });
      assert.equal(before.isOnline, false);
      // Another employee's change does not reach the rule for `watched`.
      const other = await createEmployee(server.api, { name: 'Other' });
      await drain();
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${other}`, { icon: 'van' })).status, 200);
      assert.deepEqual((await onlyTo(['all']))[0].changedValues, { icon: '' });
      server.setNow(T0);
    });

    it('a change of nothing the event carries (the device key, vehicle settings, the same values) is no event', async () => {
      await drain();
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${watched}`, { deviceKey: 'watched-phone-2' })).status, 200);
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${watched}`, { vehicleSettings: { speedLimit: 60 } })).status, 200);
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${watched}`, { name: 'Watched' })).status, 200);
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${watched}`, { deviceKey: 'watched-phone' })).status, 200);
      assert.deepEqual([...(await drain()).keys()], []);
    });

    it('a refused change writes no event and changes nothing', async () => {
      await createEmployee(server.api, { name: 'Holder', externalSubscriberID: 'EMP-TAKEN', deviceKey: 'holder-phone' });
      await drain();
      const before = await employee(watched);
      for (const r of [
        await server.api.post(SUBSCRIBERS, { name: '' }),
        await server.api.post(SUBSCRIBERS, { name: 'Dup', externalSubscriberID: 'EMP-TAKEN' }),
        await server.api.patch(`${SUBSCRIBERS}/${watched}`, { externalSubscriberID: 'EMP-TAKEN' }),
        await server.api.patch(`${SUBSCRIBERS}/${watched}`, { deviceKey: 'holder-phone', phone: 'changed' }),
        await server.api.put(`${SUBSCRIBERS}/${watched}`, { name: 'x', subscriberTariffTypeID: 99 }),
        await server.api.delete(`${SUBSCRIBERS}/987654`),
      ]) {
        assert.ok(r.status >= 400 && r.status < 500, r.text);
      }
      assert.deepEqual(await employee(watched), before);
      assert.deepEqual([...(await drain()).keys()], []);
    });

    it('delete: {signalMetadataInfo} only, naming the deleted employee', async () => {
      const leaving = await createEmployee(server.api, { name: 'Leaving' });
      await drain();
      assert.equal((await server.api.delete(`${SUBSCRIBERS}/${leaving}`)).status, 204);
      const [element] = await onlyTo(['all']);
      assert.deepEqual(Object.keys(element), ['signalMetadataInfo']);
      assertMetadata(element.signalMetadataInfo, {
        signalTypeID: 3,
        signalEntityTypeID: 2,
        entityID: leaving,
        initiator: { userID },
        signalDate: '2026-05-20T09:00:00Z',
        actualSignalDate: '2026-05-20T09:00:00Z',
      });
    });

    describe('isOnline, flipped by the presence agent', () => {
      const onlineEvent = (element: any, id: number, previous: boolean, signalDate: string, actualSignalDate = signalDate) => {
        assert.deepEqual(element.changedValues, { isOnline: previous });
        assert.equal(element.subscriber.isOnline, !previous);
        assertMetadata(element.signalMetadataInfo, { signalTypeID: 2, signalEntityTypeID: 2, entityID: id, initiator: { agentID: 1 }, signalDate, actualSignalDate });
      };

      it('turns true in the ingest transaction when fixes start arriving, once', async () => {
        server.setNow(T0);
        await drain();
        assert.equal((await server.api.post(LOCATIONS, [fix(watched, T0 - 5000), fix(watched, T0 - 1000)])).status, 201);
        const [element] = await onlyTo(['all', 'watched']);
        onlineEvent(element, watched, false, '2026-05-20T09:00:00Z');
        assert.deepEqual(element.subscriber, carried(await employee(watched)));
        assert.equal((await employee(watched)).isOnline, true);
        server.setNow(T0 + 10_000);
        assert.equal((await server.api.post(LOCATIONS, [fix(watched, T0 + 9000)])).status, 201);
        assert.deepEqual([...(await drain()).keys()], [], 'already online: nothing to tell');
      });

      it('turns true for a phone on the OsmAnd port too, and for every employee of a batch in one POST per rule', async () => {
        const phone = await createEmployee(server.api, { name: 'Phone', deviceKey: 'osmand-phone-1' });
        const a = await createEmployee(server.api, { name: 'A' });
        const b = await createEmployee(server.api, { name: 'B' });
        await drain();
        const r = await osmand.send('GET', `/?id=osmand-phone-1&lat=55.75&lon=37.61&timestamp=${Math.floor((T0 + 5000) / 1000)}`);
        assert.equal(r.status, 200, r.text);
        onlineEvent((await onlyTo(['all']))[0], phone, false, '2026-05-20T09:00:10Z');
        assert.equal((await server.api.post(LOCATIONS, [fix(b, T0), fix(a, T0), fix(watched, T0 + 9500)])).status, 201);
        const elements = await onlyTo(['all'], 2);
        assert.deepEqual(elements.map((e) => e.signalMetadataInfo.entityID).sort(), [a, b].sort());
        assert.notEqual(elements[0].signalMetadataInfo.signalID, elements[1].signalMetadataInfo.signalID, 'a signal each');
      });

      it('turns false after ONLINE_TIMEOUT without fixes, dated when the silence began to count, fired when noticed', async () => {
        // `watched` is online since T0; its arrival at T0 + 10 s was within the granularity and not
        // stored, the one at T0 + 40 s is. The employees of the last test stay at T0.
        const sweep = () => server.services.employees.presence.sweepOffline();
        server.setNow(T0 + 40_000);
        assert.equal((await server.api.post(LOCATIONS, [fix(watched, T0 + 39_000)])).status, 201);
        await drain();
        server.setNow(T0 + 40_000 + TIMEOUT + GRANULARITY - 1);
        assert.equal(await sweep(), 3, 'the three of the last test, silent since T0');
        assert.equal((await employee(watched)).isOnline, true, 'not yet certain for watched');
        assert.ok(!(await drain()).has('watched'));
        const noticed = T0 + 40_000 + TIMEOUT + GRANULARITY + 5000;
        server.setNow(noticed);
        assert.equal(await sweep(), 1);
        assert.equal((await employee(watched)).isOnline, false);
        onlineEvent((await onlyTo(['all', 'watched']))[0], watched, true, utc(T0 + 40_000 + TIMEOUT), utc(noticed));
        assert.equal(await sweep(), 0, 'once');
        assert.deepEqual([...(await drain()).keys()], []);
      });

      it('a fix after going offline turns it true again', async () => {
        const now = T0 + 2 * TIMEOUT;
        server.setNow(now);
        assert.equal((await server.api.post(LOCATIONS, [fix(watched, now - 1000)])).status, 201);
        onlineEvent((await onlyTo(['all', 'watched']))[0], watched, false, utc(now));
      });

      it('two servers sweeping one database at once flip each employee once', async () => {
        const now = T0 + 5 * TIMEOUT;
        server.setNow(now);
        const second = createServices(server.database, () => now, { allowPrivateAddresses: true });
        const flips = await Promise.all([server.services.employees.presence.sweepOffline(), second.employees.presence.sweepOffline()]);
        assert.ok(flips.reduce((a, b) => a + b, 0) >= 1);
        const rows = webhooks(await outboxSince(server, outbox.mark)).filter((r) => r.eventRuleId === rule.all);
        const entities = rows.flatMap((r) => r.payload.map((e: any) => e.signalMetadataInfo.entityID));
        assert.equal(entities.length, flips[0]! + flips[1]!, 'an event per flip');
        assert.equal(new Set(entities).size, entities.length, 'no employee twice');
        assert.ok(entities.includes(watched));
        await drain();
      });

      it('a batch that cannot write its event is not stored, and the flag stays as it was', async () => {
        const now = T0 + 6 * TIMEOUT;
        server.setNow(now);
        assert.equal((await employee(watched)).isOnline, false);
        const count = async () => (await server.api.get(`${LOCATIONS}?subscriberIDs=${watched}&dateFrom=2026-05-19T00:00:00Z&dateTo=2026-05-21T00:00:00Z`)).body.length;
        const stored = await count();
        await sql`ALTER TABLE deliveries RENAME TO deliveries_away`.execute(server.database.db);
        try {
          const r = await server.api.post(LOCATIONS, [fix(watched, now - 1000)]);
          assert.equal(r.status, 500);
        } finally {
          await sql`ALTER TABLE deliveries_away RENAME TO deliveries`.execute(server.database.db);
        }
        assert.equal(await count(), stored);
        assert.equal((await employee(watched)).isOnline, false);
        assert.equal((await server.api.post(LOCATIONS, [fix(watched, now - 1000)])).status, 201);
        onlineEvent((await onlyTo(['all', 'watched']))[0], watched, false, utc(now));
      });

      it('the sweeper runs on its own until stopped', async () => {
        const now = T0 + 10 * TIMEOUT;
        server.setNow(now);
        assert.equal((await employee(watched)).isOnline, true);
        const sweeper = new OnlineSweeper(server.services.employees.presence, 20);
        sweeper.start(server.app.log);
        try {
          for (let i = 0; i < 100 && (await employee(watched)).isOnline; i++) await sleep(20);
        } finally {
          await sweeper.stop();
        }
        assert.equal((await employee(watched)).isOnline, false);
        await drain();
      });

      it('a deleted employee is not swept and its fixes are refused', async () => {
        const gone = await createEmployee(server.api, { name: 'Gone' });
        const now = T0 + 20 * TIMEOUT;
        server.setNow(now);
        assert.equal((await server.api.post(LOCATIONS, [fix(gone, now)])).status, 201);
        assert.equal((await server.api.delete(`${SUBSCRIBERS}/${gone}`)).status, 204);
        await drain();
        server.setNow(now + 2 * TIMEOUT);
        await server.services.employees.presence.sweepOffline();
        const got = await drain();
        const entities = (got.get('all') ?? []).flatMap((r) => r.payload.map((e: any) => e.signalMetadataInfo.entityID));
        assert.ok(!entities.includes(gone));
      });
    });
  });
}
