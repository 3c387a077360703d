import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertRefusedUnchanged, read, type Refusal } from '../helpers/bad-input.js';
import { createEmployee, startServer, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { setStatus, TASKS } from '../tasks/task-fixtures.js';
import { createTemplate, FORMS } from './client-fixtures.js';

/**
 * The notification bot (Python, httpx), replayed: every 6 minutes it asks for the tasks of type 51
 * that changed since its last poll, with Python's `isoformat()` date-times (six-digit fractions,
 * `+03:00` sent as `%2B03%3A00`), then reads the forms filled on them.
 */
const NOW = Date.parse('2026-11-23T17:53:13.250Z');
const HOUR = 3_600_000;

/** What httpx sends for `datetime.isoformat()` in Moscow: `2026-11-23T20:47:13.250000+03:00`, escaped. */
function pythonIso(ms: number): string {
  const local = new Date(ms + 3 * HOUR).toISOString().replace('Z', '');
  return encodeURIComponent(`${local.slice(0, 19)}.${local.slice(20, 23)}000+03:00`);
}

const poll = (extra = 'taskTypeIDs=51') => `${TASKS}?dateFrom=${pythonIso(NOW - 6 * 60_000)}&dateTo=${pythonIso(NOW)}&${extra}`;

for (const dialect of dialects) {
  describe(`notification bot client on ${dialect}`, () => {
    let server: TestServer;
    let courier: number;
    const ids: Record<string, number> = {};

    const task = async (name: string, body: Record<string, unknown>) => {
      const r = await server.api.post(TASKS, { title: name, subscriberID: courier, ...body });
      assert.equal(r.status, 201, r.text);
      ids[name] = r.body.taskID;
    };
    const iso = (ms: number) => new Date(ms).toISOString();

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow', now: NOW - 7 * HOUR });
      courier = await createEmployee(server.api, { name: 'Courier', deviceKey: 'courier-phone-1' });
      const template = await createTemplate(server.api, [['floor', 'integer'], ['signed', 'boolean'], ['photo', 'picture']], 'Delivery report');
      const past = { startDate: iso(NOW - 6 * HOUR), deadline: iso(NOW - 5 * HOUR) };
      await task('finished51', { ...past, taskTypeID: 51, customFieldsFormTemplateID: template });
      await task('finished52', { ...past, taskTypeID: 52 });
      await task('untouched51', { ...past, taskTypeID: 51 });
      await task('plannedNow51', { startDate: iso(NOW - 3 * 60_000), taskTypeID: 51 });
      // Started 6 hours ago, completed a minute before the poll, the form filled on the phone.
      server.setNow(NOW - 60_000);
      const done = await setStatus(server.api, 'courier-phone-1', ids.finished51!, {
        status: 3,
        customFieldFormItems: [{ externalID: 'floor', value: '3' }, { externalID: 'signed', value: 'true' }],
      });
      assert.equal(done.status, 200, done.text);
      assert.equal((await setStatus(server.api, 'courier-phone-1', ids.finished52!, { status: 3 })).status, 200);
      server.setNow(NOW);
    });
    after(() => server.close());

    const titles = async (path: string) => {
      const r = await server.api.get(path);
      assert.equal(r.status, 200, `${path}: ${r.text}`);
      return r.body.map((t: any) => t.title);
    };

    it('sees the task started 6 hours ago and completed a minute ago, of its type only, beside one planned in the window', async () => {
      assert.deepEqual(await titles(poll()), ['finished51', 'plannedNow51']);
      const [finished] = (await server.api.get(poll())).body;
      assert.equal(finished.status, 3);
      assert.equal(finished.lastStatusChangeDate, '2026-11-23T20:52:13.250+03:00');
    });

    it('filters taskTypeIDs, statuses and subscriberIDs in every list form', async () => {
      assert.deepEqual(await titles(poll('taskTypeIDs=51,52')), ['finished51', 'finished52', 'plannedNow51']);
      assert.deepEqual(await titles(poll('taskTypeIDs[]=52')), ['finished52']);
      assert.deepEqual(await titles(poll('taskTypeIDs=51&taskTypeIDs=52&statuses=3')), ['finished51', 'finished52']);
      assert.deepEqual(await titles(poll(`taskTypeIDs=51&subscriberIDs[]=${courier}`)), ['finished51', 'plannedNow51']);
      assert.deepEqual(await titles(poll(`taskTypeIDs=51&subscriberIDs=${courier + 100}`)), []);
      assert.deepEqual(await titles(poll('taskTypeIDs=51&unknownFilter=1&page=2')), ['finished51', 'plannedNow51'], 'unknown parameters are ignored');
      const day = `${TASKS}?dateFrom=2026-11-23T00:00:00&dateTo=2026-11-23T23:59:59&taskTypeIDs=51`;
      assert.deepEqual(await titles(day), ['finished51', 'untouched51', 'plannedNow51'], 'planned or changed within the day');
    });

    it('reads the form filled on the finished task; tasks without a form are left out', async () => {
      const r = await server.api.get(`${FORMS}?taskIDs=${ids.finished51},${ids.finished52},${ids.untouched51},${ids.plannedNow51}`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body.length, 1);
      assert.deepEqual(r.body[0], {
        formID: ids.finished51,
        taskID: ids.finished51,
        subscriberID: courier,
        customFieldsFormTemplateID: r.body[0].customFieldsFormTemplateID,
        templateName: 'Delivery report',
        status: 3,
        lastStatusChangeDate: '2026-11-23T20:52:13.250+03:00',
        customFieldFormItems: [
          { externalID: 'floor', name: 'floor', type: 'integer', value: '3' },
          { externalID: 'signed', name: 'signed', type: 'boolean', value: 'true' },
        ],
        items: [
          { externalID: 'floor', name: 'floor', type: 'integer', value: '3' },
          { externalID: 'signed', name: 'signed', type: 'boolean', value: 'true' },
        ],
      });
      const one = await server.api.get(`${FORMS}/${ids.finished51}`);
      assert.deepEqual(one.body, r.body[0]);
      const brackets = await server.api.get(`${FORMS}?taskIDs[]=${ids.finished51}&taskIDs[]=${ids.finished52}`);
      assert.deepEqual(brackets.body, r.body);
    });

    describe('refuses bad input with the envelope and changes nothing', () => {
      const queries: [string, Refusal][] = [
        [poll('taskTypeIDs=abc'), { code: 2, field: /^taskTypeIDs/ }],
        [poll('taskTypeIDs=0'), { code: 2, field: /^taskTypeIDs/ }],
        [poll('taskTypeIDs[]=5.5'), { code: 2, field: /^taskTypeIDs/ }],
        [poll('taskTypeIDs=51&statuses=9'), { code: 2, field: /^statuses/ }],
        [`${TASKS}?dateFrom=${pythonIso(NOW)}&dateTo=2026-11-23T20:53:13`, { code: 225 }],
        [`${FORMS}`, { code: 52, field: 'taskIDs' }],
        [`${FORMS}?taskIDs=x`, { code: 2, field: /^taskIDs/ }],
        [`${FORMS}?taskIDs=1,,2`, { code: 2, field: /^taskIDs/ }],
        [`${FORMS}/abc`, { code: 2 }],
        [`${FORMS}/999999`, { code: 1021 }],
      ];
      for (const [path, expected] of queries) {
        it(`${decodeURIComponent(path.replace(/^.*\?/, '?'))}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(() => read(server.api, `${TASKS}?count=1000`), () => server.api.get(path), expected);
        });
      }
      it('a task without a form has no form: 404 code 1021', async () => {
        await assertRefusedUnchanged(() => read(server.api, `${TASKS}?count=1000`), () => server.api.get(`${FORMS}/${ids.finished52}`), { code: 1021 });
      });
      const filled: [string, unknown, Refusal][] = [
        ['an integer field given words', [{ externalID: 'floor', value: 'three' }], { code: 2, field: 'customFieldFormItems[0].value' }],
        ['a boolean field given yes', [{ externalID: 'signed', value: 'yes' }], { code: 2, field: 'customFieldFormItems[1].value' }],
        ['a field the template lacks', [{ externalID: 'nope', value: '1' }], { code: 2, field: 'customFieldFormItems[2].externalID' }],
        ['a value that is not text', [{ externalID: 'floor', value: 3 }], { code: 2 }],
        ['no externalID', [{ value: '3' }], { code: 52 }],
      ];
      for (const [label, items, expected] of filled) {
        it(`the phone's form with ${label}: code ${expected.code}`, async () => {
          await assertRefusedUnchanged(
            () => read(server.api, `${TASKS}/${ids.finished51}`),
            () => setStatus(server.api, 'courier-phone-1', ids.finished51!, { status: 3, customFieldFormItems: items }),
            expected,
            label,
          );
        });
      }
    });

    it('shows another account none of these tasks or forms', async () => {
      const stranger = await server.newAccount('Europe/Moscow');
      assert.deepEqual((await stranger.api.get(poll())).body, []);
      assert.deepEqual((await stranger.api.get(`${FORMS}?taskIDs=${ids.finished51}`)).body, []);
      const one = await stranger.api.get(`${FORMS}/${ids.finished51}`);
      assert.equal(one.status, 404);
      assert.equal(one.body.code, 1021);
    });
  });
}
