import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client, createEmployee, LOCATIONS, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { TASKS } from '../tasks/task-fixtures.js';

const PASSWORD = 'a long enough password';
const ARRIVALS = '/workspace/api/arrivals';
const T0 = Date.parse('2026-05-20T09:00:00Z');

/** A signed-in coordinator's cookie. */
async function cookieOf(server: TestServer, login: string, accountId: number): Promise<string> {
  await server.services.accounts.createUser(accountId, login, PASSWORD);
  const response = await new Client(server.baseUrl, null).post('/workspace/api/session', { login, password: PASSWORD });
  assert.equal(response.status, 200, response.text);
  return (response.headers.get('set-cookie') ?? '').split(';')[0]!;
}

/**
 * The Tasks tab's estimated arrival: the estimator of signal 24 (no ROUTER_URL here, so the
 * straight line at the employee's speed, at least 15 km/h) from the assignee's latest fix.
 */
for (const dialect of dialects) {
  describe(`workspace: estimated arrival of a task's assignee (${dialect})`, () => {
    let server: TestServer;
    let cookie: string;
    let driver: number;
    const browser = () => new Client(server.baseUrl, null);

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: T0 });
      cookie = await cookieOf(server, 'coordinator', server.account.id);
      driver = await createEmployee(server.api, { name: 'Driver' });
      // 60 km/h, 0.1° of latitude (11.1 km) south of the task's point: about 667 s away.
      const fix = await server.api.post(LOCATIONS, [{ subscriberID: driver, locationDate: '2026-05-20T11:59:00', latitude: 55.6, longitude: 37.6, velocity: 60 }]);
      assert.equal(fix.status, 201, fix.text);
    });
    after(() => server.close());

    test('estimates open assigned tasks with a point from the assignee’s latest fix, and leaves the rest out', async () => {
      const open = await server.api.post(TASKS, { title: 'On the way', startDate: '2026-05-20T13:00:00', subscriberID: driver, latitude: 55.7, longitude: 37.6 });
      const done = await server.api.post(TASKS, { title: 'Done', startDate: '2026-05-20T13:00:00', subscriberID: driver, latitude: 55.7, longitude: 37.6, status: 3 });
      const unassigned = await server.api.post(TASKS, { title: 'Nobody', startDate: '2026-05-20T13:00:00', latitude: 55.7, longitude: 37.6 });
      const pointless = await server.api.post(TASKS, { title: 'Nowhere', startDate: '2026-05-20T13:00:00', subscriberID: driver });
      const ids = [open, done, unassigned, pointless].map((r) => r.body.taskID as number);
      const answer = await browser().get(`${ARRIVALS}?taskIDs=${ids.join(',')}`, { cookie });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.body.length, 1);
      const [arrival] = answer.body;
      assert.equal(arrival.taskID, ids[0]);
      assert.equal(arrival.subscriberID, driver);
      assert.ok(Math.abs(arrival.travelSeconds - 667) <= 2, `travelSeconds ${arrival.travelSeconds}`);
      const expected = Date.parse('2026-05-20T11:59:00+03:00') + arrival.travelSeconds * 1000;
      assert.equal(Date.parse(arrival.estimatedArrivalDate), expected);
      assert.match(arrival.estimatedArrivalDate, /\+03:00$/);
      assert.equal(arrival.locationDate, '2026-05-20T11:59:00+03:00');
    });

    test('answers 401 without a session, and nothing of another account’s tasks', async () => {
      const task = await server.api.post(TASKS, { title: 'Private', startDate: '2026-05-20T13:00:00', subscriberID: driver, latitude: 55.7, longitude: 37.6 });
      assert.equal((await browser().get(`${ARRIVALS}?taskIDs=${task.body.taskID}`)).status, 401);
      const other = await server.newAccount();
      const strangerCookie = await cookieOf(server, 'stranger', other.account.id);
      const answer = await browser().get(`${ARRIVALS}?taskIDs=${task.body.taskID}`, { cookie: strangerCookie });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, []);
    });
  });
}
