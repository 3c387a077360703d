import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { postLive, Trip } from './signal-api.js';

const RULES = '/v6/api/eventManagement/events';

for (const dialect of dialects) {
  describe(`event rules on ${dialect}`, () => {
    let server: TestServer;
    let driver: number;
    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow' });
      driver = await createEmployee(server.api, { name: 'Driver' });
    });
    after(() => server.close());

    it('creates a rule with every field of CONTRACT §4 and reads it back in the account zone', async () => {
      const body = {
        name: 'Speeding on the ring road',
        kind: 1,
        subscriberIDs: [driver],
        parameters: { speedLimit: 80, minDurationSeconds: 30 },
        validFrom: '2026-06-01T00:00:00',
        validTo: '2026-12-31T23:59:00+03:00',
        weekdays: [5, 1, 2],
        timeFrom: '22:00',
        timeTo: '06:00',
        emails: ['dispatch@example.com'],
        messengerUserIDs: [3],
        messenger2UserIDs: [44, 45],
        sendToApi: true,
        apiUrl: 'https://hooks.example.com/lokator',
        batch: false,
      };
      const created = await server.api.post(RULES, body);
      assert.equal(created.status, 201, created.text);
      assert.equal(created.headers.get('location'), `${RULES}/${created.body.eventID}`);
      assert.deepEqual(created.body, {
        ...body,
        eventID: created.body.eventID,
        validFrom: '2026-06-01T00:00:00+03:00',
        weekdays: [1, 2, 5],
        smsPhones: [],
        enabled: true,
        alertWorkspace: true,
      });
      assert.deepEqual((await server.api.get(`${RULES}/${created.body.eventID}`)).body, created.body);
      assert.equal((await server.api.get(RULES)).body.length, 1);
    });

    it('replaces, patches, switches off and deletes', async () => {
      const { body: rule } = await server.api.post(RULES, { name: 'Trips', kind: 11, sendToApi: true, apiUrl: 'https://a.example/x' });
      assert.equal((await server.api.put(`${RULES}/${rule.eventID}`, { name: 'Trips 2', kind: 3, parameters: { minStopMinutes: 15 } })).status, 204);
      let now = (await server.api.get(`${RULES}/${rule.eventID}`)).body;
      assert.equal(now.name, 'Trips 2');
      assert.equal(now.sendToApi, false, 'omitted by PUT: default');
      assert.equal((await server.api.patch(`${RULES}/${rule.eventID}`, { enabled: false })).status, 204);
      now = (await server.api.get(`${RULES}/${rule.eventID}`)).body;
      assert.equal(now.enabled, false);
      assert.deepEqual(now.parameters, { minStopMinutes: 15 });
      assert.equal((await server.api.delete(`${RULES}/${rule.eventID}`)).status, 204);
      const gone = await server.api.get(`${RULES}/${rule.eventID}`);
      assert.equal(gone.status, 404);
      assert.equal(gone.body.code, 1006);
    });

    it('refuses bad rules with the right code and stores nothing', async () => {
      const before = (await server.api.get(RULES)).body.length;
      const cases: [object, number, string][] = [
        [{ name: 'back\\slash', kind: 11 }, 2, 'name'],
        [{ kind: 11 }, 52, 'name'],
        [{ name: 'x' }, 52, 'kind'],
        [{ name: 'x', kind: 5 }, 2, 'kind'],
        [{ name: 'x', kind: 1 }, 52, 'parameters.speedLimit'],
        [{ name: 'x', kind: 1, parameters: { speedLimit: -5 } }, 2, 'parameters.speedLimit'],
        [{ name: 'x', kind: 2, parameters: { on: 'entry' } }, 52, 'parameters.zoneIDs'],
        [{ name: 'x', kind: 2, parameters: { zoneIDs: [1], on: 'sideways' } }, 2, 'parameters.on'],
        [{ name: 'x', kind: 11, weekdays: [0] }, 2, 'weekdays[0]'],
        [{ name: 'x', kind: 11, timeFrom: '24:00' }, 2, 'timeFrom'],
        [{ name: 'x', kind: 11, validFrom: '2026-07-01T00:00:00Z', validTo: '2026-06-01T00:00:00Z' }, 2, 'validFrom'],
        [{ name: 'x', kind: 11, sendToApi: true }, 52, 'apiUrl'],
        [{ name: 'x', kind: 11, sendToApi: true, apiUrl: 'ftp://example.com' }, 2, 'apiUrl'],
        [{ name: 'x', kind: 11, emails: ['not-an-address'] }, 2, 'emails[0]'],
        [{ name: 'x', kind: 11, smsPhones: ['79001234567'] }, 2, 'smsPhones'],
        [{ name: 'x', kind: 11, subscriberIDs: [987654] }, 2, 'subscriberIDs[0]'],
        [{ name: 'x', kind: 11, messengerUserIDs: [0] }, 2, 'messengerUserIDs[0]'],
        [{ name: 'x', kind: 11, messenger2UserIDs: ['abc'] }, 2, 'messenger2UserIDs[0]'],
      ];
      for (const [body, code, field] of cases) {
        const r = await server.api.post(RULES, body);
        assert.equal(r.status, 400, `${JSON.stringify(body)}: ${r.text}`);
        assert.equal(r.body.code, code, `${JSON.stringify(body)}: ${r.text}`);
        assert.ok(field in (r.body.validationErrors ?? {}), `${JSON.stringify(body)} names ${field}: ${r.text}`);
      }
      assert.equal((await server.api.get(RULES)).body.length, before);
    });

    it('sends a signal to every channel of its rule, each messenger user on its own channel', async () => {
      const car = await createEmployee(server.api, { name: 'Courier' });
      const { body: rule } = await server.api.post(RULES, {
        name: 'Over 60, to people',
        kind: 1,
        subscriberIDs: [car],
        parameters: { speedLimit: 60 },
        emails: ['dispatch@example.com'],
        messengerUserIDs: [3],
        messenger2UserIDs: [44, 45],
      });
      // Recent fixes: the server runs on the real clock, and fixes older than SIGNAL_MAX_AGE fire nothing.
      await postLive(server.api, new Trip(car, Date.now() - 3_600_000).drive(30, 72).fixes);
      const rows = await server.database.db
        .selectFrom('deliveries')
        .select(['channel', 'target'])
        .where('event_rule_id', '=', rule.eventID)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((r) => [r.channel, r.target]),
        [
          ['email', 'dispatch@example.com'],
          ['messenger', '3'],
          ['messenger2', '44'],
          ['messenger2', '45'],
        ],
      );
    });

    it('reads a rule stored before the second messenger channel with an empty list for it', async () => {
      const { body: rule } = await server.api.post(RULES, { name: 'Old', kind: 7, messengerUserIDs: [3] });
      const row = await server.database.db.selectFrom('event_rules').select('document').where('id', '=', rule.eventID).executeTakeFirstOrThrow();
      const { messenger2UserIDs: _dropped, ...older } = JSON.parse(row.document) as Record<string, unknown>;
      await server.database.db.updateTable('event_rules').set({ document: JSON.stringify(older) }).where('id', '=', rule.eventID).execute();
      const read = (await server.api.get(`${RULES}/${rule.eventID}`)).body;
      assert.deepEqual([read.messengerUserIDs, read.messenger2UserIDs], [[3], []]);
    });

    it('keeps accounts apart', async () => {
      const { body: rule } = await server.api.post(RULES, { name: 'Mine', kind: 7 });
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(RULES)).body, []);
      for (const r of [
        await stranger.api.get(`${RULES}/${rule.eventID}`),
        await stranger.api.patch(`${RULES}/${rule.eventID}`, { enabled: false }),
        await stranger.api.delete(`${RULES}/${rule.eventID}`),
      ]) {
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 1006);
      }
      const theirs = await stranger.api.post(RULES, { name: 'x', kind: 11, subscriberIDs: [driver] });
      assert.equal(theirs.status, 400, 'another account’s employee is unknown here');
    });
  });
}
