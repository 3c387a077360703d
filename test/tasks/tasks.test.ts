import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEmployee, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { MOBILE_STATUS, setStatus, TASKS } from './task-fixtures.js';
import { createTemplate } from '../clients/client-fixtures.js';

/** The server's clock: creation and status-change dates are taken from it. */
const T0 = Date.parse('2026-05-20T09:00:00Z');

for (const dialect of dialects) {
  describe(`tasks on ${dialect}`, () => {
    let server: TestServer;
    let driver: number;
    let helper: number;
    let driverKey: string;

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 });
      driver = await createEmployee(server.api, { name: 'Driver', externalSubscriberID: 'EMP-D', deviceKey: 'driver-phone-1' });
      helper = await createEmployee(server.api, { name: 'Helper', externalSubscriberID: 'EMP-H' });
      driverKey = 'driver-phone-1';
    });
    after(() => server.close());

    it('creates a task with the defaults and answers 201 with a Location header', async () => {
      const r = await server.api.post(TASKS, { title: 'Visit', startDate: '2026-06-01T09:00:00' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.headers.get('location'), `${TASKS}/${r.body.taskID}`);
      assert.deepEqual(r.body, {
        taskID: r.body.taskID,
        subscriberID: null,
        deadline: null,
        title: 'Visit',
        description: '',
        address: '',
        longitude: null,
        latitude: null,
        externalID: null,
        clientName: '',
        clientPhone: '',
        clientEmail: '',
        priority: 0,
        startDate: '2026-06-01T09:00:00+03:00',
        status: 0,
        taskTypeID: null,
        customStatusID: null,
        customStatusReasonID: null,
        mapObjectID: null,
        mapObjectWorkScheduleID: null,
        commentPolicy: 0,
        serviceTime: 0,
        startInterval: 0,
        isFixed: false,
        isMandatoryInRoute: false,
        creationDate: '2026-05-20T12:00:00+03:00',
        lastStatusChangeDate: '2026-05-20T12:00:00+03:00',
        preferredPositionInRoute: null,
        customFieldsFormTemplateID: null,
        routeItems: [],
        workOrders: [],
        competences: [],
        dimensions: null,
        customFieldFormItems: [],
        statusComment: null,
      });
      assert.deepEqual((await server.api.get(`${TASKS}/${r.body.taskID}`)).body, r.body);
    });

    it('stores every field of interface 2.8: own dates in the account zone, route and work-order dates in UTC with Z', async () => {
      const template = await createTemplate(server.api, [['cf1', 'integer'], ['cf2', 'select']]);
      const body = {
        title: 'Deliver pallets',
        startDate: '2026-06-01T09:00:00',
        deadline: '2026-06-01T15:00:00Z',
        subscriberID: driver,
        description: 'Two pallets, ring twice',
        address: 'Tverskaya 1, Moscow',
        longitude: 37.6173,
        latitude: 55.7558,
        externalID: 'T-1',
        clientName: 'ООО Ромашка',
        clientPhone: '79001234567',
        clientEmail: 'client@example.com',
        priority: 2,
        status: 1,
        taskTypeID: 3,
        customStatusID: 4,
        customStatusReasonID: 5,
        mapObjectID: 6,
        mapObjectWorkScheduleID: 7,
        commentPolicy: 3,
        serviceTime: 30,
        startInterval: 15.5,
        isFixed: true,
        isMandatoryInRoute: true,
        preferredPositionInRoute: 2,
        customFieldFormTemplateID: template,
        routeItems: [
          {
            plannedStartDate: '2026-06-01T10:00:00+03:00',
            plannedEndDate: '2026-06-01T07:30:00Z',
            timeToPoint: 12,
            distanceToPoint: 3400,
            creationDate: '2026-05-31T12:00:00',
            lastUpdateDate: '2026-05-31T09:00:00.5Z',
          },
        ],
        workOrders: [{ workOrderID: 11, subscriberID: helper, startTime: '2026-06-01T10:00:00', endTime: '2026-06-01T11:00:00', serviceTime: 45 }],
        competences: [{ competenceID: 1, amount: 2, level: 3, efficiency: 0.8 }, { competenceID: 2 }],
        dimensions: { weight: 120.5, unit: 2, width: 1.2, height: 1, length: 0.8, volume: 0.96 },
        customFieldFormItems: [
          { externalID: 'cf1', name: 'Floor', value: '3', type: 'Integer' },
          { externalID: 'cf2', name: 'Options', values: ['a', 'b'], type: 'select' },
        ],
        taskID: 999,
        creationDate: '2000-01-01T00:00:00Z',
        statusComment: 'not mine to set',
        somethingUnknown: 'is ignored',
      };
      const r = await server.api.post(TASKS, body);
      assert.equal(r.status, 201, r.text);
      assert.notEqual(r.body.taskID, 999);
      const { customFieldFormTemplateID: _t, somethingUnknown: _u, taskID: _i, creationDate: _c, statusComment: _s, ...expected } = body;
      assert.deepEqual(r.body, {
        ...expected,
        taskID: r.body.taskID,
        startDate: '2026-06-01T09:00:00+03:00',
        deadline: '2026-06-01T18:00:00+03:00',
        customFieldsFormTemplateID: template,
        creationDate: '2026-05-20T12:00:00+03:00',
        lastStatusChangeDate: '2026-05-20T12:00:00+03:00',
        statusComment: null,
        routeItems: [
          {
            plannedStartDate: '2026-06-01T07:00:00Z',
            plannedEndDate: '2026-06-01T07:30:00Z',
            timeToPoint: 12,
            distanceToPoint: 3400,
            creationDate: '2026-05-31T09:00:00Z',
            lastUpdateDate: '2026-05-31T09:00:00.500Z',
          },
        ],
        workOrders: [
          {
            workOrderID: 11,
            subscriberID: helper,
            startTime: '2026-06-01T07:00:00Z',
            endTime: '2026-06-01T08:00:00Z',
            serviceTime: 45,
            creationDate: null,
            lastUpdateDate: null,
            subscriberName: 'Helper',
            subscriberExternalID: 'EMP-H',
          },
        ],
        competences: [
          { competenceID: 1, amount: 2, level: 3, efficiency: 0.8 },
          { competenceID: 2, amount: null, level: null, efficiency: null },
        ],
      });
      assert.deepEqual((await server.api.get(`${TASKS}/${r.body.taskID}`)).body, r.body);

      // Work orders name the employee as the employee is now.
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${helper}`, { name: 'Helper Two' })).status, 200);
      const renamed = (await server.api.get(`${TASKS}/${r.body.taskID}`)).body;
      assert.equal(renamed.workOrders[0].subscriberName, 'Helper Two');
      assert.equal((await server.api.patch(`${SUBSCRIBERS}/${helper}`, { name: 'Helper' })).status, 200);
    });

    it('replaces with PUT (omitted fields take defaults, the creation date stays) and changes with PATCH', async () => {
      const created = (await server.api.post(TASKS, { title: 'Old', startDate: '2026-06-02T10:00:00', address: 'A', priority: 2, subscriberID: driver })).body;
      server.setNow(T0 + 60_000);
      const put = await server.api.put(`${TASKS}/${created.taskID}`, { title: 'New', startDate: '2026-06-03T10:00:00+03:00', clientName: 'Ivan' });
      assert.equal(put.status, 204);
      assert.equal(put.text, '');
      const replaced = (await server.api.get(`${TASKS}/${created.taskID}`)).body;
      assert.deepEqual(replaced, {
        ...created,
        title: 'New',
        startDate: '2026-06-03T10:00:00+03:00',
        clientName: 'Ivan',
        address: '',
        priority: 0,
        subscriberID: null,
      });

      const patch = await server.api.patch(`${TASKS}/${created.taskID}`, { description: 'more', subscriberID: helper, deadline: '2026-06-04T00:00:00' });
      assert.equal(patch.status, 204);
      const patched = (await server.api.get(`${TASKS}/${created.taskID}`)).body;
      assert.deepEqual(patched, { ...replaced, description: 'more', subscriberID: helper, deadline: '2026-06-04T00:00:00+03:00' });

      assert.equal((await server.api.patch(`${TASKS}/${created.taskID}`, { deadline: null, subscriberID: null })).status, 204);
      const cleared = (await server.api.get(`${TASKS}/${created.taskID}`)).body;
      assert.deepEqual(cleared, { ...patched, deadline: null, subscriberID: null });
      server.setNow(T0);
    });

    it('records status changes in lastStatusChangeDate; any status may follow any status', async () => {
      const task = (await server.api.post(TASKS, { title: 'Statuses', startDate: '2026-06-05T08:00:00' })).body;
      let minute = 0;
      const sequence = [3, 0, 4, 2, 1, 3, 2, 0, 1, 4, 3];
      for (const status of sequence) {
        minute += 1;
        server.setNow(T0 + minute * 60_000);
        assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { status })).status, 204, `→ ${status}`);
        const now = (await server.api.get(`${TASKS}/${task.taskID}`)).body;
        assert.equal(now.status, status);
        assert.equal(now.lastStatusChangeDate, `2026-05-20T12:${String(minute).padStart(2, '0')}:00+03:00`);
      }
      // Other changes, and the same status again, leave it as it was.
      server.setNow(T0 + 3_600_000);
      assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { status: 3, title: 'Renamed' })).status, 204);
      assert.equal((await server.api.put(`${TASKS}/${task.taskID}`, { title: 'Put', startDate: '2026-06-05T08:00:00', status: 3 })).status, 204);
      const last = (await server.api.get(`${TASKS}/${task.taskID}`)).body;
      assert.equal(last.lastStatusChangeDate, `2026-05-20T12:${String(sequence.length).padStart(2, '0')}:00+03:00`);
      server.setNow(T0);
    });

    it('deletes: the task is gone (404 code 18) from every route and the list', async () => {
      const task = (await server.api.post(TASKS, { title: 'Short-lived', startDate: '2026-06-06T08:00:00', subscriberID: driver })).body;
      const gone = await server.api.delete(`${TASKS}/${task.taskID}`);
      assert.equal(gone.status, 204);
      assert.equal(gone.text, '');
      for (const r of [
        await server.api.get(`${TASKS}/${task.taskID}`),
        await server.api.put(`${TASKS}/${task.taskID}`, { title: 'Back', startDate: '2026-06-06T08:00:00' }),
        await server.api.patch(`${TASKS}/${task.taskID}`, { title: 'Back' }),
        await server.api.delete(`${TASKS}/${task.taskID}`),
        await setStatus(server.api, driverKey, task.taskID, { status: 1 }),
      ]) {
        assert.equal(r.status, 404, r.text);
        assert.equal(r.body.code, 18);
        assert.equal(r.body.description, 'TASK_NOT_FOUND');
      }
      assert.ok(!(await server.api.get(TASKS)).body.some((t: any) => t.taskID === task.taskID));
    });

    describe('lists', () => {
      const ids: Record<string, number> = {};
      before(async () => {
        const stranger = await server.newAccount();
        await stranger.api.post(TASKS, { title: 'Not ours', startDate: '2026-07-01T10:00:00' });
        const make = async (name: string, body: Record<string, unknown>) => {
          ids[name] = (await server.api.post(TASKS, { title: name, ...body })).body.taskID;
        };
        // Created out of start order: the list is by start date.
        await make('c', { startDate: '2026-07-03T10:00:00', subscriberID: driver, status: 3 });
        await make('a', { startDate: '2026-07-01T10:00:00', subscriberID: driver });
        await make('b', { startDate: '2026-07-02T10:00:00', subscriberID: helper, status: 2 });
        await make('b2', { startDate: '2026-07-02T10:00:00', status: 4 });
        await make('d', { startDate: '2026-07-04T23:30:00' });
      });
      const july = 'dateFrom=2026-07-01T00:00:00&dateTo=2026-07-31T00:00:00';
      const listed = async (query: string) => {
        const r = await server.api.get(`${TASKS}?${query}`);
        assert.equal(r.status, 200, r.text);
        return r.body.map((t: any) => t.title);
      };

      it('orders by start date, then id, and bounds the start date by dateFrom and dateTo in the account zone', async () => {
        assert.deepEqual(await listed(july), ['a', 'b', 'b2', 'c', 'd']);
        assert.deepEqual(await listed('dateFrom=2026-07-02T10:00:00&dateTo=2026-07-03T10:00:00'), ['b', 'b2', 'c'], 'bounds included');
        assert.deepEqual(await listed('dateFrom=2026-07-04T20:00:00Z'), ['d'], 'only dateFrom');
        assert.deepEqual(await listed('dateFrom=2026-07-01T00:00:00Z&dateTo=2026-07-01T07:00:00Z'), ['a']);
        const all = await listed('');
        assert.ok(all.includes('a') && all.includes('Visit'), 'without dates: every task, none of another account');
        assert.ok(!all.includes('Not ours'));
      });

      it('filters by subscriberIDs and statuses in every list form, and pages with count and offset', async () => {
        assert.deepEqual(await listed(`${july}&subscriberIDs=${driver}`), ['a', 'c']);
        assert.deepEqual(await listed(`${july}&subscriberIDs=${driver},${helper}`), ['a', 'b', 'c']);
        assert.deepEqual(await listed(`${july}&subscriberIDs[]=${helper}&subscriberIDs[]=${driver}`), ['a', 'b', 'c']);
        assert.deepEqual(await listed(`${july}&statuses=0`), ['a', 'd']);
        assert.deepEqual(await listed(`${july}&statuses=2&statuses=4`), ['b', 'b2']);
        assert.deepEqual(await listed(`${july}&statuses[]=3&subscriberIDs=${driver}`), ['c']);
        assert.deepEqual(await listed(`${july}&count=2`), ['a', 'b']);
        assert.deepEqual(await listed(`${july}&count=2&offset=2`), ['b2', 'c']);
        assert.deepEqual(await listed(`${july}&offset=5`), []);
      });
    });

    describe('the mobile endpoint', () => {
      let task: any;
      before(async () => {
        task = (await server.api.post(TASKS, { title: 'Phone task', startDate: '2026-06-10T09:00:00', subscriberID: driver, commentPolicy: 3 })).body;
      });

      it('lets the employee set the status of their own task and answers the task', async () => {
        server.setNow(T0 + 120_000);
        const r = await setStatus(server.api, driverKey, task.taskID, { status: 4 });
        assert.equal(r.status, 200, r.text);
        const expected = { ...task, status: 4, lastStatusChangeDate: '2026-05-20T12:02:00+03:00' };
        assert.deepEqual(r.body, expected);
        assert.deepEqual((await server.api.get(`${TASKS}/${task.taskID}`)).body, expected);
        server.setNow(T0);
      });

      it('asks for a comment where commentPolicy does, and keeps it with the status', async () => {
        const refused = await setStatus(server.api, driverKey, task.taskID, { status: 3 });
        assert.equal(refused.status, 400);
        assert.equal(refused.body.code, 52);
        assert.ok('comment' in refused.body.validationErrors);
        const blank = await setStatus(server.api, driverKey, task.taskID, { status: 2, comment: '   ' });
        assert.equal(blank.body.code, 52);
        assert.equal((await server.api.get(`${TASKS}/${task.taskID}`)).body.status, 4, 'refused: unchanged');

        const done = await setStatus(server.api, driverKey, task.taskID, { status: 3, comment: 'Delivered, signed by Ольга' });
        assert.equal(done.status, 200, done.text);
        assert.equal(done.body.statusComment, 'Delivered, signed by Ольга');
        // A coordinator's status change carries no comment: the old one goes.
        assert.equal((await server.api.patch(`${TASKS}/${task.taskID}`, { status: 1 })).status, 204);
        assert.equal((await server.api.get(`${TASKS}/${task.taskID}`)).body.statusComment, null);
      });

      it('applies commentPolicy 0, 1 and 2 as the interface names them', async () => {
        const cases: [number, number, boolean][] = [
          [0, 2, false], [0, 3, false],
          [1, 3, true], [1, 2, false],
          [2, 2, true], [2, 3, false],
          [3, 2, true], [3, 3, true], [3, 4, false], [3, 1, false],
        ];
        for (const [commentPolicy, status, required] of cases) {
          const t = (await server.api.post(TASKS, { title: 'Policy', startDate: '2026-06-11T09:00:00', subscriberID: driver, commentPolicy })).body;
          const r = await setStatus(server.api, driverKey, t.taskID, { status });
          assert.equal(r.status, required ? 400 : 200, `policy ${commentPolicy}, status ${status}: ${r.text}`);
        }
      });

      it("answers 404 code 18 for another employee's task, an unassigned one and another account's", async () => {
        const others = (await server.api.post(TASKS, { title: 'Helper task', startDate: '2026-06-10T09:00:00', subscriberID: helper })).body;
        const nobodys = (await server.api.post(TASKS, { title: 'Unassigned', startDate: '2026-06-10T09:00:00' })).body;
        const stranger = await server.newAccount();
        const theirs = (await stranger.api.post(TASKS, { title: 'Theirs', startDate: '2026-06-10T09:00:00' })).body;
        for (const id of [others.taskID, nobodys.taskID, theirs.taskID, 987654]) {
          const r = await setStatus(server.api, driverKey, id, { status: 1 });
          assert.equal(r.status, 404, r.text);
          assert.equal(r.body.code, 18);
        }
        assert.equal((await server.api.get(`${TASKS}/${others.taskID}`)).body.status, 0);
      });

      it('refuses requests without a valid device key with 401 code 1, before looking at the body', async () => {
        const path = MOBILE_STATUS(task.taskID);
        const attempts: [Record<string, string>, unknown][] = [
          [{}, { status: 1 }],
          [{ authorization: 'Device unknown-key-1' }, { status: 1 }],
          [{ authorization: `Bearer ${server.token}` }, { status: 1 }],
          [{ authorization: 'Device' }, { status: 1 }],
          [{ authorization: 'Device unknown-key-1' }, { status: 'broken' }],
        ];
        for (const [headers, body] of attempts) {
          const r = await server.api.withToken(null).post(path, body, headers);
          assert.equal(r.status, 401, `${JSON.stringify(headers)}: ${r.text}`);
          assert.equal(r.body.code, 1);
          assert.equal(r.headers.get('www-authenticate'), 'Device');
        }
        // A deleted employee's key no longer works.
        const leaving = await createEmployee(server.api, { name: 'Leaving', deviceKey: 'leaving-phone' });
        const t = (await server.api.post(TASKS, { title: 'x', startDate: '2026-06-10T09:00:00', subscriberID: leaving })).body;
        assert.equal((await setStatus(server.api, 'leaving-phone', t.taskID, { status: 1 })).status, 200);
        assert.equal((await server.api.delete(`${SUBSCRIBERS}/${leaving}`)).status, 204);
        assert.equal((await setStatus(server.api, 'leaving-phone', t.taskID, { status: 2 })).status, 401);
      });

      it('refuses a bad status or body with the envelope and changes nothing', async () => {
        const before = (await server.api.get(`${TASKS}/${task.taskID}`)).body;
        const bad: [unknown, number, string][] = [
          [{}, 52, 'status'],
          [{ status: null }, 52, 'status'],
          [{ status: 5 }, 2, 'status'],
          [{ status: -1 }, 2, 'status'],
          [{ status: 1.5 }, 2, 'status'],
          [{ status: '1' }, 2, 'status'],
          [{ status: 1, comment: 7 }, 2, 'comment'],
          [{ status: 1, comment: 'c'.repeat(2001) }, 2, 'comment'],
        ];
        for (const [body, code, field] of bad) {
          const r = await setStatus(server.api, driverKey, task.taskID, body);
          assert.equal(r.body.code, code, `${JSON.stringify(body).slice(0, 80)}: ${r.text}`);
          assert.ok(field in (r.body.validationErrors ?? {}), `${JSON.stringify(body).slice(0, 80)} names ${field}: ${r.text}`);
        }
        for (const id of ['abc', '0', '-1', '1.5', '99999999999999999999']) {
          const r = await server.api.withToken(null).post(MOBILE_STATUS(id), { status: 1 }, { authorization: `Device ${driverKey}` });
          assert.equal(r.status, 400, `${id}: ${r.text}`);
          assert.equal(r.body.code, 2);
        }
        const text = await server.api.withToken(null).post(MOBILE_STATUS(task.taskID), 'status=1', { authorization: `Device ${driverKey}`, 'content-type': 'text/plain' });
        assert.equal(text.body.code, 1011);
        assert.deepEqual((await server.api.get(`${TASKS}/${task.taskID}`)).body, before);
      });
    });

    it('keeps accounts apart: a stranger gets 404 for every task route, an empty list, and cannot assign our employees', async () => {
      const mine = (await server.api.post(TASKS, { title: 'Mine', startDate: '2026-06-01T09:00:00', subscriberID: driver })).body;
      const stranger = await server.newAccount();
      assert.deepEqual((await stranger.api.get(TASKS)).body, []);
      for (const r of [
        await stranger.api.get(`${TASKS}/${mine.taskID}`),
        await stranger.api.put(`${TASKS}/${mine.taskID}`, { title: 'Hijacked', startDate: '2026-06-01T09:00:00' }),
        await stranger.api.patch(`${TASKS}/${mine.taskID}`, { title: 'Hijacked' }),
        await stranger.api.delete(`${TASKS}/${mine.taskID}`),
      ]) {
        assert.equal(r.status, 404);
        assert.equal(r.body.code, 18);
      }
      assert.deepEqual((await server.api.get(`${TASKS}/${mine.taskID}`)).body, mine);
      const theirs = await stranger.api.post(TASKS, { title: 'Theirs', startDate: '2026-06-01T09:00:00', subscriberID: driver });
      assert.equal(theirs.status, 400);
      assert.equal(theirs.body.code, 2);
      assert.ok('subscriberID' in theirs.body.validationErrors);
      const order = await stranger.api.post(TASKS, { title: 'Theirs', startDate: '2026-06-01T09:00:00', workOrders: [{ subscriberID: helper }] });
      assert.equal(order.status, 400);
      assert.ok('workOrders[0].subscriberID' in order.body.validationErrors);
      assert.deepEqual((await stranger.api.get(`${TASKS}?subscriberIDs=${driver}`)).body, []);
    });
  });
}
