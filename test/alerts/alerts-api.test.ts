import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { at, moscow, postLive, RULES, T0, TASKS, Trip, ZONES } from '../signals/signal-api.js';

const ALERTS = '/v6/api/eventManagement/alerts';
const HOUR = 3_600_000;

function square(westM: number, eastM: number, halfM = 500) {
  return [at(westM, -halfM), at(eastM, -halfM), at(eastM, halfM), at(westM, halfM)].map((p) => ({ latitude: p.lat, longitude: p.lon }));
}

for (const dialect of dialects) {
  describe(`workspace alerts through the API on ${dialect}`, () => {
    let server: TestServer;
    let login: string;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 + 12 * HOUR });
      login = (await server.database.db.selectFrom('users').select('login').where('account_id', '=', server.account.id).executeTakeFirstOrThrow()).login;
    });
    after(() => server.close());

    it('a speeding fix posted by a tracker is one alert with the employee, what, where and when, from a rule without channels', async () => {
      const truck = await createEmployee(server.api, { name: 'Truck 12' });
      const created = await server.api.post(RULES, { name: 'Over 60', kind: 1, subscriberIDs: [truck], parameters: { speedLimit: 60 } });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.alertWorkspace, true, 'on by default');
      const rule = created.body.eventID as number;
      const trip = new Trip(truck, T0).park(30).drive(60, 72).park(30);
      await postLive(server.api, trip.fixes);

      const fix = trip.fixes.find((f) => f.velocity === 72)!;
      const list = await server.api.get(`${ALERTS}?subscriberIDs=${truck}`);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.body.data.length, 1);
      const alert = list.body.data[0];
      assert.deepEqual(
        {
          kind: alert.kind,
          eventID: alert.eventID,
          eventName: alert.eventName,
          subscriberID: alert.subscriberID,
          subscriberName: alert.subscriberName,
          what: alert.what,
          where: alert.where,
          occurredAt: alert.occurredAt,
          handledAt: alert.handledAt,
          handledBy: alert.handledBy,
        },
        {
          kind: 1,
          eventID: rule,
          eventName: 'Over 60',
          subscriberID: truck,
          subscriberName: 'Truck 12',
          what: 'Speeding: 72 km/h',
          where: `${fix.latitude.toFixed(5)}, ${fix.longitude.toFixed(5)}`,
          occurredAt: moscow(Date.parse(fix.locationDate)),
          handledAt: null,
          handledBy: null,
        },
      );
      assert.equal((await server.api.get(`${ALERTS}?subscriberIDs=${truck}&lang=ru`)).body.data[0].what, 'Превышение скорости: 72 км/ч');
      const deliveries = await server.database.db.selectFrom('deliveries').select('id').where('event_rule_id', '=', rule).execute();
      assert.deepEqual(deliveries, [], 'no channel, no delivery');
    });

    it('a zone entry names the zone; a task change names the task and its address', async () => {
      const van = await createEmployee(server.api, { name: 'Van 3' });
      const zone = (await server.api.post(ZONES, { name: 'Warehouse', bounds: square(1000, 2000) })).body.zoneID;
      assert.equal((await server.api.post(RULES, { name: 'Warehouse in', kind: 2, subscriberIDs: [van], parameters: { zoneIDs: [zone], on: 'entry' } })).status, 201);
      assert.equal((await server.api.post(RULES, { name: 'Tasks', kind: 'taskChanges', subscriberIDs: [van] })).status, 201);
      await postLive(server.api, new Trip(van, T0 + HOUR).park(30).drive(180, 36).fixes);
      const task = await server.api.post(TASKS, { title: 'Parcel', startDate: '2026-05-20T15:00:00', subscriberID: van, address: 'Tverskaya 7', latitude: 55.76, longitude: 37.61 });
      assert.equal(task.status, 201, task.text);

      const alerts = (await server.api.get(`${ALERTS}?subscriberIDs=${van}`)).body.data;
      assert.deepEqual(
        alerts.map((a: any) => [a.kind, a.what, a.where, a.subscriberName]),
        [
          ['taskChanges', 'Task “Parcel” added', 'Tverskaya 7', 'Van 3'],
          [2, 'Entered zone “Warehouse”', 'Warehouse', 'Van 3'],
        ],
      );
    });

    it('filters by kind, employee, group, period and handled, and pages newest first by lastAlertID', async () => {
      const group = (await server.api.post('/v6/api/subscriberManagement/subscriberGroups', { name: 'Night shift' })).body.subscriberGroupID;
      const a = await createEmployee(server.api, { name: 'Night car', subscriberGroupID: group });
      const b = await createEmployee(server.api, { name: 'Day car' });
      await server.api.post(RULES, { name: 'Over 90', kind: 1, subscriberIDs: [a, b], parameters: { speedLimit: 90 } });
      const start = T0 + 2 * HOUR;
      await postLive(server.api, [...new Trip(a, start).drive(30, 100).park(30).drive(30, 100).fixes, ...new Trip(b, start + HOUR).drive(30, 100).fixes]);

      const ids = (query: string) => server.api.get(`${ALERTS}?${query}`).then((r) => (assert.equal(r.status, 200, r.text), r.body.data.map((x: any) => x.subscriberID)));
      assert.deepEqual(await ids(`subscriberIDs=${a},${b}`), [b, a, a], 'newest first');
      assert.deepEqual(await ids(`subscriberGroupIDs=${group}`), [a, a]);
      assert.deepEqual(await ids(`kind=1&subscriberIDs=${b}`), [b]);
      assert.deepEqual(await ids(`kind=taskChanges&subscriberIDs=${b}`), []);
      assert.deepEqual(await ids(`subscriberIDs=${a}&subscriberIDs=${b}&dateFrom=2026-05-20T10:30:00&dateTo=2026-05-20T11:30:00`), [a, a]);
      const page = (await server.api.get(`${ALERTS}?subscriberIDs=${a},${b}&count=2`)).body.data;
      assert.equal(page.length, 2);
      assert.deepEqual(await ids(`subscriberIDs=${a},${b}&lastAlertID=${page[1].alertID}`), [a]);

      const newest = page[0].alertID;
      assert.equal((await server.api.post(`${ALERTS}/${newest}/handled`, {})).status, 204);
      assert.deepEqual(await ids(`subscriberIDs=${a},${b}&handled=false`), [a, a]);
      assert.deepEqual(await ids(`subscriberIDs=${a},${b}&handled=true`), [b]);
      assert.equal((await server.api.get(`${ALERTS}?count=1001`)).body.code, 67);
      assert.equal((await server.api.get(`${ALERTS}?handled=maybe`)).status, 400);
    });

    it('handled records who and when, once; another account sees 404 and an empty list', async () => {
      const car = await createEmployee(server.api, { name: 'Car 5' });
      await server.api.post(RULES, { name: 'Over 50', kind: 1, subscriberIDs: [car], parameters: { speedLimit: 50 } });
      await postLive(server.api, new Trip(car, T0 + 5 * HOUR).drive(30, 60).fixes);
      const [alert] = (await server.api.get(`${ALERTS}?subscriberIDs=${car}`)).body.data;

      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(ALERTS)).body, { data: [] });
      const refused = await stranger.api.post(`${ALERTS}/${alert.alertID}/handled`, {});
      assert.equal(refused.status, 404);
      assert.equal(refused.body.code, 1028);
      assert.equal(refused.body.description, 'ALERT_NOT_FOUND');
      assert.equal((await server.api.get(`${ALERTS}?subscriberIDs=${car}`)).body.data[0].handledAt, null, 'the stranger changed nothing');
      assert.equal((await server.api.post(`${ALERTS}/999999999/handled`, {})).body.code, 1028);

      server.setNow(T0 + 13 * HOUR);
      assert.equal((await server.api.post(`${ALERTS}/${alert.alertID}/handled`, {})).status, 204);
      server.setNow(T0 + 14 * HOUR);
      assert.equal((await server.api.post(`${ALERTS}/${alert.alertID}/handled`, {})).status, 204, 'again: the same answer');
      const handled = (await server.api.get(`${ALERTS}?subscriberIDs=${car}`)).body.data[0];
      assert.equal(handled.handledBy, login);
      assert.equal(handled.handledAt, moscow(T0 + 13 * HOUR), 'the first time counts');
      assert.equal(typeof handled.handledByUserID, 'number');
    });

    it('a rule with alertWorkspace false alerts nothing but still delivers; a patch turns it on', async () => {
      const car = await createEmployee(server.api, { name: 'Quiet car' });
      const created = await server.api.post(RULES, { name: 'Quiet', kind: 1, subscriberIDs: [car], parameters: { speedLimit: 50 }, alertWorkspace: false, sendToApi: true, apiUrl: 'http://127.0.0.1:9/hook' });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.alertWorkspace, false);
      await postLive(server.api, new Trip(car, T0 + 6 * HOUR).drive(30, 60).park(30).fixes);
      assert.deepEqual((await server.api.get(`${ALERTS}?subscriberIDs=${car}`)).body.data, []);
      const deliveries = await server.database.db.selectFrom('deliveries').select('id').where('event_rule_id', '=', created.body.eventID).execute();
      assert.equal(deliveries.length, 1);

      assert.equal((await server.api.patch(`${RULES}/${created.body.eventID}`, { alertWorkspace: true })).status, 204);
      await postLive(server.api, new Trip(car, T0 + 7 * HOUR).drive(30, 60).fixes);
      assert.equal((await server.api.get(`${ALERTS}?subscriberIDs=${car}`)).body.data.length, 1);
    });
  });
}
