import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, describe, it } from 'node:test';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { assertMetadata, createRule, outboxMark, ruleOutbox, setStatus, TASKS, userIdOf } from './task-fixtures.js';

/** Wednesday 2026-05-20, 12:00 in Moscow. */
const T0 = Date.parse('2026-05-20T09:00:00Z');
const HOOK = 'http://127.0.0.1:9/hooks';

/**
 * Task change events (interface 6.4, CONTRACT §4): written to the outbox in the transaction of the
 * change, one JSON array per POST for every rule of kind taskChanges that applies, with complete
 * signalMetadataInfo and changedValues holding only the previous values of the changed fields.
 */
for (const dialect of dialects) {
  describe(`task change events on ${dialect}`, () => {
    let server: TestServer;
    let driver: number;
    let helper: number;
    let userID: number;
    const rule: Record<string, number> = {};
    const outbox = ruleOutbox(() => server, rule);
    /** The webhook rows written since the last call, by rule name. */
    const drain = outbox.drain;
    /** The single element each of `names` received (and nobody else received anything). */
    const onlyTo = async (names: string[]) => {
      const got = await drain();
      assert.deepEqual([...got.keys()].sort(), [...names].sort(), 'the rules that fired');
      const elements = names.map((name) => {
        const rows = got.get(name)!;
        assert.equal(rows.length, 1, `${name}: one POST`);
        assert.equal(rows[0]!.target, `${HOOK}/${name}`);
        assert.ok(Array.isArray(rows[0]!.payload), `${name}: the body is a JSON array`);
        assert.equal(rows[0]!.payload.length, 1, `${name}: one element`);
        return { name, element: rows[0]!.payload[0] };
      });
      // One signal: the same signalID in every rule's copy, each copy naming its rule.
      assert.equal(new Set(elements.map((e) => e.element.signalMetadataInfo.signalID)).size, 1, 'one signalID for the change');
      for (const { name, element } of elements) assert.equal(element.signalMetadataInfo.signalResultID, rule[name], `${name}: signalResultID is the rule`);
      return elements[0]!.element;
    };

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 });
      driver = await createEmployee(server.api, { name: 'Driver', deviceKey: 'driver-phone-1' });
      helper = await createEmployee(server.api, { name: 'Helper' });
      userID = await userIdOf(server);
      const hook = (name: string) => ({ name, sendToApi: true, apiUrl: `${HOOK}/${name}` });
      rule.all = await createRule(server.api, { ...hook('all'), kind: 'taskChanges' });
      rule.driver = await createRule(server.api, { ...hook('driver'), kind: 'taskChanges', subscriberIDs: [driver] });
      rule.helper = await createRule(server.api, { ...hook('helper'), kind: 'taskChanges', subscriberIDs: [helper] });
      // Rules that never apply here: switched off, other weekdays, another hour, expired, other kinds.
      rule.disabled = await createRule(server.api, { ...hook('disabled'), kind: 'taskChanges', enabled: false });
      rule.weekend = await createRule(server.api, { ...hook('weekend'), kind: 'taskChanges', weekdays: [6, 7] });
      rule.evening = await createRule(server.api, { ...hook('evening'), kind: 'taskChanges', timeFrom: '18:00', timeTo: '23:00' });
      rule.expired = await createRule(server.api, { ...hook('expired'), kind: 'taskChanges', validTo: '2026-05-20T11:59:00' });
      rule.employees = await createRule(server.api, { ...hook('employees'), kind: 'employeeChanges' });
      rule.trips = await createRule(server.api, { ...hook('trips'), kind: 11 });
      await outbox.begin();
    });
    after(() => server.close());

    it('add: {task, signalMetadataInfo} with the task as the API answers it, for the rules that apply', async () => {
      const created = await server.api.post(TASKS, { title: 'Deliver', startDate: '2026-06-01T09:00:00', subscriberID: driver, priority: 1 });
      assert.equal(created.status, 201);
      const element = await onlyTo(['all', 'driver']);
      assert.deepEqual(Object.keys(element), ['task', 'signalMetadataInfo']);
      assert.deepEqual(element.task, created.body);
      assertMetadata(element.signalMetadataInfo, {
        signalTypeID: 1,
        signalEntityTypeID: 1,
        entityID: created.body.taskID,
        initiator: { userID },
        signalDate: '2026-05-20T09:00:00Z',
        actualSignalDate: '2026-05-20T09:00:00Z',
      });
    });

    it('edit: changedValues holds the previous values of only the changed fields', async () => {
      const task = (await server.api.post(TASKS, { title: 'Old title', startDate: '2026-06-01T09:00:00', subscriberID: driver, address: 'A' })).body;
      await drain();
      server.setNow(T0 + 60_000);
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'New title', address: 'A', description: 'd' })).status, 204);
      const element = await onlyTo(['all', 'driver']);
      assert.deepEqual(Object.keys(element), ['task', 'signalMetadataInfo', 'changedValues']);
      assert.deepEqual(element.changedValues, { title: 'Old title', description: '' });
      assert.deepEqual(element.task, (await server.api.get(`${TASKS}/${task.taskID}`)).body);
      assertMetadata(element.signalMetadataInfo, {
        signalTypeID: 2,
        signalEntityTypeID: 1,
        entityID: task.taskID,
        initiator: { userID },
        signalDate: '2026-05-20T09:01:00Z',
        actualSignalDate: '2026-05-20T09:01:00Z',
      });

      // A status change changes lastStatusChangeDate with it.
      server.setNow(T0 + 120_000);
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { status: 4 })).status, 204);
      assert.deepEqual((await onlyTo(['all', 'driver'])).changedValues, { status: 0, lastStatusChangeDate: '2026-05-20T12:00:00+03:00' });

      // PUT: every field it resets is a change; nested values are compared whole.
      assert.equal(
        (await server.api.put(`${TASKS}/${task.taskID}`, {
          title: 'New title',
          startDate: '2026-06-01T09:00:00',
          subscriberID: driver,
          status: 4,
          customFieldFormItems: [{ externalID: 'cf', name: 'n', value: 'v', type: 'text' }],
        })).status,
        204,
      );
      assert.deepEqual((await onlyTo(['all', 'driver'])).changedValues, { address: 'A', description: 'd', customFieldFormItems: [] });
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { customFieldFormItems: [{ externalID: 'cf', name: 'n', value: 'w', type: 'text' }] })).status, 204);
      assert.deepEqual((await onlyTo(['all', 'driver'])).changedValues, { customFieldFormItems: [{ externalID: 'cf', name: 'n', value: 'v', type: 'text' }] });
      server.setNow(T0);
    });

    it('an edit that changes nothing is no event', async () => {
      const task = (await server.api.post(TASKS, { title: 'Same', startDate: '2026-06-01T09:00:00', subscriberID: driver })).body;
      await drain();
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Same', subscriberID: driver })).status, 204);
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, {})).status, 204);
      assert.equal((await server.api.put(`${TASKS}/${task.taskID}`, { title: 'Same', startDate: '2026-06-01T09:00:00+03:00', subscriberID: driver })).status, 204);
      assert.deepEqual([...(await drain()).keys()], []);
    });

    it("reassigning tells the rules of both employees; another employee's task reaches neither", async () => {
      const task = (await server.api.post(TASKS, { title: 'Moves', startDate: '2026-06-01T09:00:00', subscriberID: driver })).body;
      await drain();
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { subscriberID: helper })).status, 204);
      assert.deepEqual((await onlyTo(['all', 'driver', 'helper'])).changedValues, { subscriberID: driver });
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Helper only' })).status, 204);
      await onlyTo(['all', 'helper']);
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { subscriberID: null })).status, 204);
      assert.deepEqual((await onlyTo(['all', 'helper'])).changedValues, { subscriberID: helper });
      // Unassigned: only the rules for every employee.
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Nobody’s' })).status, 204);
      await onlyTo(['all']);
    });

    it('the employee’s phone is the initiator of a change through the mobile endpoint', async () => {
      const task = (await server.api.post(TASKS, { title: 'Phone', startDate: '2026-06-01T09:00:00', subscriberID: driver })).body;
      await drain();
      server.setNow(T0 + 300_000);
      const r = await setStatus(server.api, 'driver-phone-1', task.taskID, { status: 1 });
      assert.equal(r.status, 200, r.text);
      const element = await onlyTo(['all', 'driver']);
      assert.deepEqual(element.changedValues, { status: 0, lastStatusChangeDate: '2026-05-20T12:00:00+03:00' });
      assert.deepEqual(element.task, r.body);
      assertMetadata(element.signalMetadataInfo, {
        signalTypeID: 2,
        signalEntityTypeID: 1,
        entityID: task.taskID,
        initiator: { subscriberID: driver },
        signalDate: '2026-05-20T09:05:00Z',
        actualSignalDate: '2026-05-20T09:05:00Z',
      });
      server.setNow(T0 + 360_000);
      const comment = await setStatus(server.api, 'driver-phone-1', task.taskID, { status: 3, comment: 'done' });
      assert.deepEqual((await onlyTo(['all', 'driver'])).changedValues, { status: 1, lastStatusChangeDate: '2026-05-20T12:05:00+03:00', statusComment: null });
      assert.equal(comment.body.statusComment, 'done');
      server.setNow(T0);
    });

    it('delete: {signalMetadataInfo} only, naming the deleted task', async () => {
      const task = (await server.api.post(TASKS, { title: 'Doomed', startDate: '2026-06-01T09:00:00', subscriberID: helper })).body;
      await drain();
      assert.equal((await server.api.delete(`${TASKS}/${task.taskID}`)).status, 204);
      const element = await onlyTo(['all', 'helper']);
      assert.deepEqual(Object.keys(element), ['signalMetadataInfo']);
      assertMetadata(element.signalMetadataInfo, {
        signalTypeID: 3,
        signalEntityTypeID: 1,
        entityID: task.taskID,
        initiator: { userID },
        signalDate: '2026-05-20T09:00:00Z',
        actualSignalDate: '2026-05-20T09:00:00Z',
      });
    });

    it('signal ids are unique and grow from change to change', async () => {
      const task = (await server.api.post(TASKS, { title: 'Ids', startDate: '2026-06-01T09:00:00' })).body;
      const first = (await onlyTo(['all'])).signalMetadataInfo.signalID;
      await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Ids 2' });
      const second = (await onlyTo(['all'])).signalMetadataInfo.signalID;
      await server.api.delete(`${TASKS}/${task.taskID}`);
      const third = (await onlyTo(['all'])).signalMetadataInfo.signalID;
      assert.ok(Number.isSafeInteger(first) && first > 0);
      assert.ok(first < second && second < third, `${first} < ${second} < ${third}`);
    });

    it('a rule fires only inside its daily window, in the account zone', async () => {
      const task = (await server.api.post(TASKS, { title: 'Late', startDate: '2026-06-01T09:00:00' })).body;
      await drain();
      server.setNow(Date.parse('2026-05-20T18:30:00+03:00'));
      await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Later' });
      await onlyTo(['all', 'evening']);
      // Saturday evening: the weekend rule too.
      server.setNow(Date.parse('2026-05-23T18:30:00+03:00'));
      await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Weekend' });
      await onlyTo(['all', 'evening', 'weekend']);
      server.setNow(T0);
    });

    it('a refused change writes no event and changes nothing', async () => {
      const task = (await server.api.post(TASKS, { title: 'Guarded', startDate: '2026-06-01T09:00:00', subscriberID: driver })).body;
      await drain();
      const refusals = [
        () => server.api.post(TASKS, { title: 'x', startDate: '2026-06-01T09:00:00', priority: 3 }),
        () => server.api.post(TASKS, { startDate: '2026-06-01T09:00:00' }),
        () => server.api.post(TASKS, { title: 'x', startDate: '2026-06-01T09:00:00', subscriberID: 987654 }),
        () => server.api.patch(`${TASKS}/${task.taskID}`, { title: null }),
        () => server.api.patch(`${TASKS}/${task.taskID}`, { deadline: '2026-05-01T00:00:00' }),
        () => server.api.patch(`${TASKS}/${task.taskID}`, { subscriberID: 987654 }),
        () => server.api.patch(`${TASKS}/${task.taskID}`, { startDate: 'tomorrow' }),
        () => server.api.put(`${TASKS}/${task.taskID}`, { title: 'x' }),
        () => server.api.delete(`${TASKS}/987654`),
        () => setStatus(server.api, 'driver-phone-1', task.taskID, { status: 9 }),
        () => setStatus(server.api, 'no-such-phone', task.taskID, { status: 1 }),
      ];
      const count = async () => (await server.api.get(TASKS)).body.length;
      const tasksBefore = await count();
      for (const refuse of refusals) {
        const r = await refuse();
        assert.ok(r.status >= 400 && r.status < 500, r.text);
      }
      assert.deepEqual([...(await drain()).keys()], [], 'no event');
      assert.equal(await count(), tasksBefore);
      assert.deepEqual((await server.api.get(`${TASKS}/${task.taskID}`)).body, task);
    });

    it('the change and its event commit together: when the outbox cannot be written, the change is not made', async () => {
      const task = (await server.api.post(TASKS, { title: 'Atomic', startDate: '2026-06-01T09:00:00', subscriberID: driver })).body;
      await drain();
      const count = async () => (await server.api.get(TASKS)).body.length;
      const tasksBefore = await count();
      await sql`ALTER TABLE deliveries RENAME TO deliveries_away`.execute(server.database.db);
      try {
        const created = await server.api.post(TASKS, { title: 'Never', startDate: '2026-06-01T09:00:00' });
        assert.equal(created.status, 500);
        assert.equal(created.body.code, 3);
        assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Never' })).status, 500);
        assert.equal((await setStatus(server.api, 'driver-phone-1', task.taskID, { status: 3 })).status, 500);
        assert.equal((await server.api.delete(`${TASKS}/${task.taskID}`)).status, 500);
      } finally {
        await sql`ALTER TABLE deliveries_away RENAME TO deliveries`.execute(server.database.db);
      }
      assert.equal(await count(), tasksBefore);
      assert.deepEqual((await server.api.get(`${TASKS}/${task.taskID}`)).body, task);
      assert.deepEqual([...(await drain()).keys()], []);
      // And with the outbox back, the same change goes through with its event.
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Now' })).status, 204);
      assert.deepEqual((await onlyTo(['all', 'driver'])).changedValues, { title: 'Atomic' });
    });

    it("another account's rules never hear of our tasks, and ours not of theirs", async () => {
      const stranger = await server.newAccount('Europe/Moscow');
      await createRule(stranger.api, { name: 'theirs', kind: 'taskChanges', sendToApi: true, apiUrl: `${HOOK}/theirs` });
      const before = await outboxMark(server);
      await server.api.post(TASKS, { title: 'Ours', startDate: '2026-06-01T09:00:00' });
      await stranger.api.post(TASKS, { title: 'Theirs', startDate: '2026-06-01T09:00:00' });
      const rows = await server.database.db.selectFrom('deliveries').select(['account_id', 'target']).where('id', '>', before).orderBy('id').execute();
      assert.deepEqual(
        rows.map((r) => [r.account_id, r.target]),
        [
          [server.account.id, `${HOOK}/all`],
          [stranger.account.id, `${HOOK}/theirs`],
        ],
      );
      await drain();
    });
  });
}
