import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ABSENT,
  assertRefusedUnchanged,
  codePoints,
  describeBodyRefusals,
  describeFieldRefusals,
  describePathIdRefusals,
  fieldCases,
  HUGE_DIGITS,
  qs,
  read,
  shorten,
  show,
  sqlLooking,
  unicodeSamples,
  WHOLE_WRITES,
  type BodyCase,
  type FieldCase,
  type FieldRow,
  type Refusal,
  type Write,
} from '../helpers/bad-input.js';
import { createEmployee, startServer, SUBSCRIBERS, type Response, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';
import { createRule, TASKS } from './task-fixtures.js';

/**
 * Bad input to `/v6/api/taskManagement/tasks` (CONTRACT §1, §5): every query and path parameter
 * and every body field of POST, PUT and PATCH. A refusal answers the error envelope with the
 * contract's code (22 a missing title, 52 another missing or null field, 2 any other bad value,
 * 18 an unknown task) and changes nothing: no task and no change event (a rule for every task
 * change is configured, so a stray write would show in the outbox). Text fields keep SQL-looking
 * and unusual Unicode text exactly as sent.
 */

interface People {
  driver: number;
  departed: number;
  strangers: number;
}

const id = (path: string): [string, Refusal, unknown[]] => [path, { code: 2 }, [0, -1, 1.5, 'x', '7', true, 2 ** 53, [1]]];

const fieldRows: FieldRow[] = [
  ['title', { code: 22 }, [ABSENT], WHOLE_WRITES],
  ['title', { code: 22 }, [null, '', '   ', '\t\n']],
  ['title', { code: 2 }, ['T'.repeat(501), 'T'.repeat(100_000), 42, true, ['Visit'], { text: 'Visit' }]],
  ['startDate', { code: 52 }, [ABSENT], WHOLE_WRITES],
  ['startDate', { code: 52 }, [null]],
  [
    'startDate',
    { code: 2 },
    [
      'tomorrow', '', '2026-13-01T10:00:00', '2026-02-30T10:00:00', '2026-06-01', '2026-06-01T24:00:00', '2026-06-01T10:00:00+19:00',
      '2026-06-01 10:00:00', '01.06.2026 10:00', '2026-06-01T10:00:00.12345678Z', '١٢٠٢-06-01T10:00:00', 'x'.repeat(65),
      "2026-06-01T10:00:00'; DROP TABLE tasks;--", 1_780_000_000, true, ['2026-06-01T10:00:00'],
    ],
  ],
  ['deadline', { code: 2 }, ['soon', '2026-06-01', 5, false, '2026-05-01T00:00:00', '2026-06-01T09:59:59.999+03:00']],
  id('subscriberID'),
  ['subscriberID', { code: 2 }, [987_654, (p: People) => p.departed, (p: People) => p.strangers]],
  ['description', { code: 52 }, [null]],
  ['description', { code: 2 }, ['d'.repeat(10_001), 5, ['d']]],
  ['address', { code: 52 }, [null]],
  ['address', { code: 2 }, ['a'.repeat(1001), 5, {}]],
  ['longitude', { code: 2 }, [181, -180.5, '37.6', true, 1e308, [37.6]]],
  ['latitude', { code: 2 }, [90.5, -91, '55.7', false, -1e308]],
  ['externalID', { code: [2, 52] }, ['']],
  ['externalID', { code: 2 }, [5, 'E'.repeat(201), ['T-1'], true]],
  ...['clientName', 'clientPhone', 'clientEmail'].map((f): [string, Refusal, unknown[]] => [f, { code: 52 }, [null]]),
  ['clientName', { code: 2 }, ['c'.repeat(201), 5, ['x']]],
  ['clientPhone', { code: 2 }, ['7'.repeat(51), 79_001_234_567, true]],
  ['clientEmail', { code: 2 }, ['not-an-address', 'a@', '@example.com', 'a b@example.com', `${'e'.repeat(250)}@x.io`, 5]],
  ['priority', { code: 52 }, [null]],
  ['priority', { code: 2 }, [3, -1, 1.5, '1', true, 'high']],
  ['status', { code: 52 }, [null]],
  ['status', { code: 2 }, [5, -1, 2.5, '0', 'new', false]],
  ...['taskTypeID', 'customStatusID', 'customStatusReasonID', 'mapObjectID', 'mapObjectWorkScheduleID', 'customFieldsFormTemplateID', 'customFieldFormTemplateID'].map(id),
  ['commentPolicy', { code: 52 }, [null]],
  ['commentPolicy', { code: 2 }, [4, -1, 0.5, '0']],
  ...['serviceTime', 'startInterval'].flatMap((f): [string, Refusal, unknown[]][] => [
    [f, { code: 52 }, [null]],
    [f, { code: 2 }, [-1, 1_000_001, '30', true]],
  ]),
  ...['isFixed', 'isMandatoryInRoute'].flatMap((f): [string, Refusal, unknown[]][] => [
    [f, { code: 52 }, [null]],
    [f, { code: 2 }, ['true', 1, 0, 'yes']],
  ]),
  ['preferredPositionInRoute', { code: 2 }, [-1, 1.5, 1_000_001, 'first', true]],
  ...['routeItems', 'workOrders', 'competences', 'customFieldFormItems'].map((f): [string, Refusal, unknown[]] => [f, { code: 52 }, [null]]),
  ['routeItems', { code: 2 }, ['x', {}, Array.from({ length: 101 }, () => ({}))]],
  ['workOrders', { code: 2 }, ['x', { subscriberID: 1 }, Array.from({ length: 101 }, () => ({ subscriberID: 1 }))]],
  ['competences', { code: 2 }, ['x', { competenceID: 1 }, Array.from({ length: 201 }, (_, i) => ({ competenceID: i + 1 }))]],
  ['customFieldFormItems', { code: 2 }, ['x', {}, Array.from({ length: 201 }, (_, i) => ({ externalID: `cf${i}`, name: 'n', type: 'text' }))]],
  ['dimensions', { code: 2 }, ['big', [], 5, true]],
];

const item = { externalID: 'cf1', name: 'Floor', value: '3', type: 'Integer' };
const CF = 'customFieldFormItems';
const RI = 'routeItems';
const WO = 'workOrders';

/** Elements of the array fields and the object field: the key names the element by its index. */
const nestedCases: FieldCase[] = [
  { path: RI, value: [null], expect: { code: 52 }, named: `${RI}[0]` },
  ...['plannedStartDate', 'plannedEndDate', 'creationDate', 'lastUpdateDate'].flatMap((f): FieldCase[] => [
    { path: RI, value: [{ [f]: 'later' }], expect: { code: 2 }, named: `${RI}[0].${f}` },
    { path: RI, value: [{ [f]: 5 }], expect: { code: 2 }, named: `${RI}[0].${f}` },
  ]),
  { path: RI, value: [{ plannedStartDate: '2026-06-01T10:00:00Z', plannedEndDate: '2026-06-01T09:59:00Z' }], expect: { code: 2 }, named: `${RI}[0].plannedEndDate` },
  { path: RI, value: [{}, { timeToPoint: -1 }], expect: { code: 2 }, named: `${RI}[1].timeToPoint` },
  { path: RI, value: [{ distanceToPoint: '5' }], expect: { code: 2 }, named: `${RI}[0].distanceToPoint` },
  { path: RI, value: [{ distanceToPoint: 1e10 }], expect: { code: 2 }, named: `${RI}[0].distanceToPoint` },
  { path: WO, value: [null], expect: { code: 52 }, named: `${WO}[0]` },
  { path: WO, value: [{}], expect: { code: 52 }, named: `${WO}[0].subscriberID` },
  { path: WO, value: [{ subscriberID: null }], expect: { code: 52 }, named: `${WO}[0].subscriberID` },
  { path: WO, value: [{ subscriberID: 'x' }], expect: { code: 2 }, named: `${WO}[0].subscriberID` },
  { path: WO, value: [{ subscriberID: 987_654 }], expect: { code: 2 }, named: `${WO}[0].subscriberID` },
  { path: WO, value: (p: People) => [{ subscriberID: p.driver }, { subscriberID: p.departed }], expect: { code: 2 }, named: `${WO}[1].subscriberID` },
  { path: WO, value: (p: People) => [{ subscriberID: p.strangers }], expect: { code: 2 }, named: `${WO}[0].subscriberID` },
  { path: WO, value: [{ subscriberID: 1, workOrderID: 0 }], expect: { code: 2 }, named: `${WO}[0].workOrderID` },
  { path: WO, value: [{ subscriberID: 1, serviceTime: -5 }], expect: { code: 2 }, named: `${WO}[0].serviceTime` },
  { path: WO, value: [{ subscriberID: 1, startTime: 'now' }], expect: { code: 2 }, named: `${WO}[0].startTime` },
  {
    path: WO,
    value: (p: People) => [{ subscriberID: p.driver, startTime: '2026-06-01T10:00:00Z', endTime: '2026-06-01T12:59:00+03:00' }],
    expect: { code: 2 },
    named: `${WO}[0].endTime`,
  },
  { path: 'competences', value: [null], expect: { code: 52 }, named: 'competences[0]' },
  { path: 'competences', value: [{ amount: 1 }], expect: { code: 52 }, named: 'competences[0].competenceID' },
  { path: 'competences', value: [{ competenceID: 0 }], expect: { code: 2 }, named: 'competences[0].competenceID' },
  ...['amount', 'level', 'efficiency'].flatMap((f): FieldCase[] => [
    { path: 'competences', value: [{ competenceID: 1, [f]: -1 }], expect: { code: 2 }, named: `competences[0].${f}` },
    { path: 'competences', value: [{ competenceID: 1, [f]: 'high' }], expect: { code: 2 }, named: `competences[0].${f}` },
  ]),
  ...['weight', 'unit', 'width', 'height', 'length', 'volume'].flatMap((f): FieldCase[] => [
    { path: `dimensions.${f}`, value: -0.5, expect: { code: 2 } },
    { path: `dimensions.${f}`, value: '2', expect: { code: 2 } },
    { path: `dimensions.${f}`, value: 1e10, expect: { code: 2 } },
  ]),
  { path: CF, value: [null], expect: { code: 52 }, named: `${CF}[0]` },
  { path: CF, value: [{ ...item, externalID: undefined }], expect: { code: 52 }, named: `${CF}[0].externalID` },
  { path: CF, value: [{ ...item, name: undefined }], expect: { code: 52 }, named: `${CF}[0].name` },
  { path: CF, value: [{ ...item, type: null }], expect: { code: 52 }, named: `${CF}[0].type` },
  ...['Strng', 'strings', 'int', 'datetime', 'ｓｔｒｉｎｇ', 'text; DROP TABLE tasks'].map(
    (type): FieldCase => ({ path: CF, value: [{ ...item, type }], expect: { code: 2 }, named: `${CF}[0].type` }),
  ),
  { path: CF, value: [item, { ...item, type: 'colour' }], expect: { code: 2 }, named: `${CF}[1].type` },
  { path: CF, value: [{ ...item, value: 5 }], expect: { code: 2 }, named: `${CF}[0].value` },
  { path: CF, value: [{ ...item, values: ['a', 1] }], expect: { code: 2 }, named: `${CF}[0].values[1]` },
];

const cases = fieldCases(fieldRows, nestedCases);

const listQueries: [string, Refusal][] = [
  ...['abc', '0', '-1', '1.5', HUGE_DIGITS, 'null', '1;DROP TABLE tasks', ''].map((v): [string, Refusal] => [qs(['subscriberIDs', v]), { code: 2, field: /^subscriberIDs/ }]),
  [qs(['subscriberIDs', '1,abc']), { code: 2, field: /^subscriberIDs/ }],
  [qs(['subscriberIDs[]', '1'], ['subscriberIDs[]', '0']), { code: 2, field: /^subscriberIDs/ }],
  ...['5', '-1', 'x', '1.5', 'new', '', '1,9'].map((v): [string, Refusal] => [qs(['statuses', v]), { code: 2, field: /^statuses/ }]),
  [qs(['statuses[]', '0'], ['statuses[]', '7']), { code: 2, field: /^statuses/ }],
  ...['dateFrom', 'dateTo'].flatMap((f): [string, Refusal][] =>
    ['yesterday', '2026-13-01T00:00:00', '2026-06-01', '', "2026-06-01T00:00:00' OR 1=1"].map((v): [string, Refusal] => [qs([f, v]), { code: 2, field: f }]),
  ),
  [qs(['dateFrom', '2026-06-02T00:00:00Z'], ['dateTo', '2026-06-01T00:00:00Z']), { code: 2, field: 'dateFrom' }],
  [qs(['dateFrom', '2026-06-01T00:00:00Z'], ['dateTo', '2026-06-02T00:00:00']), { code: 225 }],
  [qs(['dateFrom', '2026-06-01T00:00:00Z'], ['dateFrom', '2026-06-02T00:00:00Z']), { code: 2, field: 'dateFrom' }],
  [qs(['count', '1001']), { code: 67, field: 'count' }],
  ...['0', '-1', 'x', '1.5', ''].map((v): [string, Refusal] => [qs(['count', v]), { code: 2, field: 'count' }]),
  ...['-1', 'x', '1.5', HUGE_DIGITS].map((v): [string, Refusal] => [qs(['offset', v]), { code: 2, field: 'offset' }]),
];

const badIds: string[] = [
  'abc', '0', '-1', '1.5', '9007199254740992', HUGE_DIGITS, 'null', encodeURIComponent('🚚'),
  encodeURIComponent('1;DROP TABLE tasks'), encodeURIComponent("1' OR '1'='1"), '1%ZZ',
];

for (const dialect of dialects) {
  describe(`bad input to the task routes on ${dialect}`, () => {
    let server: TestServer;
    let target: number;
    let departedTask: number;
    const people: People = { driver: 0, departed: 0, strangers: 0 };

    /** Every task with every field, and how many messages the outbox holds. */
    const state = async () => ({
      tasks: await read(server.api, TASKS),
      outbox: Number((await server.database.db.selectFrom('deliveries').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    });
    const send: Record<Write, (body: unknown) => Promise<Response>> = {
      POST: (body) => server.api.post(TASKS, body),
      PUT: (body) => server.api.put(`${TASKS}/${target}`, body),
      PATCH: (body) => server.api.patch(`${TASKS}/${target}`, body),
    };
    const baseBody = (route: Write): Record<string, unknown> => (route === 'PATCH' ? {} : { title: 'Probe', startDate: '2026-06-01T10:00:00' });
    const resolve = (value: unknown) => (typeof value === 'function' ? (value as (p: People) => unknown)(people) : value);

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Moscow' });
      people.driver = await createEmployee(server.api, { name: 'Driver' });
      people.departed = await createEmployee(server.api, { name: 'Departed' });
      assert.equal((await server.api.delete(`${SUBSCRIBERS}/${people.departed}`)).status, 204);
      const stranger = await server.newAccount();
      people.strangers = await createEmployee(stranger.api, { name: 'Theirs' });
      await createRule(server.api, { name: 'every task change', kind: 'taskChanges', sendToApi: true, apiUrl: 'http://127.0.0.1:9/hook' });
      const created = await server.api.post(TASKS, {
        title: 'Target',
        startDate: '2026-06-01T10:00:00',
        deadline: '2026-06-01T18:00:00',
        subscriberID: people.driver,
        latitude: 55.75,
        longitude: 37.61,
        externalID: 'T-TARGET',
        customFieldFormItems: [item],
        workOrders: [{ subscriberID: people.driver, startTime: '2026-06-01T10:00:00Z' }],
      });
      assert.equal(created.status, 201, created.text);
      target = created.body.taskID;
      departedTask = (await server.api.post(TASKS, { title: 'Gone', startDate: '2026-06-01T10:00:00' })).body.taskID;
      assert.equal((await server.api.delete(`${TASKS}/${departedTask}`)).status, 204);
    });
    after(() => server.close());

    describe('GET tasks: query parameters', () => {
      for (const [query, expect] of listQueries) {
        it(`GET ?${shorten(decodeURIComponent(query))} → code ${[expect.code].flat().join(' or ')}`, async () => {
          await assertRefusedUnchanged(state, () => server.api.get(`${TASKS}?${query}`), expect, query);
        });
      }
    });

    describePathIdRefusals(
      'path {taskID}',
      state,
      [
        ['GET', (id) => server.api.get(`${TASKS}/${id}`)],
        ['PUT', (id) => server.api.put(`${TASKS}/${id}`, { title: 'Replaced', startDate: '2026-06-01T10:00:00' })],
        ['PATCH', (id) => server.api.patch(`${TASKS}/${id}`, { title: 'Patched' })],
        ['DELETE', (id) => server.api.delete(`${TASKS}/${id}`)],
      ],
      badIds,
      { code: 18, deleted: () => departedTask },
    );

    describeBodyRefusals(
      state,
      [
        ['an array', JSON.stringify([{ title: 'x', startDate: '2026-06-01T10:00:00' }]), {}, { code: 2 }],
        ['a string', JSON.stringify('Visit'), {}, { code: 2 }],
        ['a number', '42', {}, { code: 2 }],
        ['true', 'true', {}, { code: 2 }],
        ['null', 'null', {}, { code: 52 }],
        ['an empty body', '', {}, { code: [2, 52] }],
        ['malformed JSON', '{"title": "Visit",', {}, { code: 2 }],
        ['a __proto__ key', '{"title": "x", "startDate": "2026-06-01T10:00:00", "__proto__": {"status": 3}}', {}, { code: 2 }],
        ['plain text', 'title=Visit', { 'content-type': 'text/plain' }, { code: 1011 }],
        ['more than 1 MiB', JSON.stringify({ title: 'x', startDate: '2026-06-01T10:00:00', description: 'd'.repeat(1024 * 1024 + 1) }), {}, { code: 1010 }],
      ] satisfies BodyCase[],
      (route, text, headers) => server.api.request(route, route === 'POST' ? TASKS : `${TASKS}/${target}`, text, headers),
    );

    describeFieldRefusals(state, cases, send, baseBody, resolve);

    describe('fields checked together', () => {
      it('latitude and longitude come together: one without the other is code 2 naming the missing one', async () => {
        for (const [route, body, field] of [
          ['POST', { title: 'x', startDate: '2026-06-01T10:00:00', latitude: 55.7 }, 'longitude'],
          ['POST', { title: 'x', startDate: '2026-06-01T10:00:00', longitude: 37.6, latitude: null }, 'latitude'],
          ['PUT', { title: 'x', startDate: '2026-06-01T10:00:00', longitude: 37.6 }, 'latitude'],
          ['PATCH', { latitude: null }, 'latitude'],
          ['PATCH', { longitude: null }, 'longitude'],
        ] as [Write, object, string][]) {
          await assertRefusedUnchanged(state, () => send[route](body), { code: 2, field }, `${route} ${JSON.stringify(body)}`);
        }
      });

      it('a deadline before the start is code 2, however the change comes about', async () => {
        for (const [route, body] of [
          ['PATCH', { startDate: '2026-06-02T00:00:00' }],
          ['PATCH', { deadline: '2026-06-01T09:00:00' }],
          ['PUT', { title: 'x', startDate: '2026-06-01T10:00:00', deadline: '2026-06-01T06:59:59Z' }],
        ] as [Write, object][]) {
          await assertRefusedUnchanged(state, () => send[route](body), { code: 2, field: 'deadline' }, `${route} ${JSON.stringify(body)}`);
        }
      });

      it("a PUT or PATCH of an unknown or another account's task with a valid body creates nothing", async () => {
        const stranger = await server.newAccount();
        for (const r of [
          () => server.api.put(`${TASKS}/987654`, { title: 'Ghost', startDate: '2026-06-01T10:00:00' }),
          () => server.api.patch(`${TASKS}/987654`, { title: 'Ghost' }),
          () => stranger.api.put(`${TASKS}/${target}`, { title: 'Ghost', startDate: '2026-06-01T10:00:00' }),
          () => stranger.api.patch(`${TASKS}/${target}`, { status: 3 }),
          () => stranger.api.delete(`${TASKS}/${target}`),
        ]) {
          await assertRefusedUnchanged(state, r, { code: 18 }, 'unknown');
        }
      });
    });

    describe('text is stored verbatim', () => {
      const samples = [...sqlLooking, ...unicodeSamples];
      samples.forEach((text, i) => {
        it(`round-trips ${show(text)} in every text field through POST, PUT and PATCH`, async () => {
          const fields = {
            title: text,
            description: text,
            address: text,
            externalID: `X${i}-${text}`,
            clientName: codePoints(text, 200),
            clientPhone: codePoints(text, 50),
            customFieldFormItems: [{ externalID: text, name: text, value: text, values: [text, `${text}2`], type: 'Text' }],
          };
          const created = await server.api.post(TASKS, { ...fields, startDate: '2026-06-01T10:00:00' });
          assert.equal(created.status, 201, created.text);
          const id = created.body.taskID;
          for (const [key, value] of Object.entries(fields)) assert.deepEqual(created.body[key], value, `created ${key}`);
          assert.deepEqual((await server.api.get(`${TASKS}/${id}`)).body, created.body, 'read back');
          const replaced = { ...fields, title: `${text} (PUT)`, startDate: '2026-06-01T10:00:00' };
          assert.equal((await server.api.put(`${TASKS}/${id}`, replaced)).status, 204);
          assert.equal((await server.api.patch(`${TASKS}/${id}`, { address: `(PATCH) ${text}` })).status, 204);
          const final = (await server.api.get(`${TASKS}/${id}`)).body;
          assert.deepEqual(
            { title: final.title, address: final.address, description: final.description, items: final.customFieldFormItems },
            { title: replaced.title, address: `(PATCH) ${text}`, description: text, items: fields.customFieldFormItems },
          );
        });
      });

      it('leaves the tables intact after all of them', async () => {
        const all = (await server.api.get(TASKS)).body;
        assert.equal(all.length, 1 + samples.length);
        assert.ok(all.some((t: any) => t.taskID === target));
        assert.equal((await server.api.get(SUBSCRIBERS)).body.length, 1);
      });

      it('a NUL character or a lone surrogate in text is refused with 400 code 2, never stored altered', async () => {
        for (const body of [
          { title: 'nul\u0000title', startDate: '2026-06-01T10:00:00' },
          { title: 'x', startDate: '2026-06-01T10:00:00', clientName: 'half \ud83d of an emoji' },
        ]) {
          await assertRefusedUnchanged(state, () => server.api.post(TASKS, body), { code: 2 }, JSON.stringify(body));
        }
      });
    });

    describe('unknown and read-only fields', () => {
      it('are ignored: an id, dates and the comment in a body neither choose nor change them', async () => {
        const before = (await server.api.get(`${TASKS}/${target}`)).body;
        const ignored = {
          taskID: 1,
          creationDate: '2000-01-01T00:00:00Z',
          lastStatusChangeDate: '2000-01-01T00:00:00Z',
          statusComment: 'forged',
          account_id: 99,
          somethingUnknown: "'); DROP TABLE tasks;--",
        };
        assert.equal((await server.api.patch(`${TASKS}/${target}`, ignored)).status, 204);
        assert.deepEqual((await server.api.get(`${TASKS}/${target}`)).body, before);
        const created = await server.api.post(TASKS, { title: 'Fresh', startDate: '2026-06-01T10:00:00', ...ignored, routeItems: [{ colour: 'red' }], dimensions: { weight: 1, turbo: true } });
        assert.equal(created.status, 201, created.text);
        assert.notEqual(created.body.taskID, 1);
        assert.equal(created.body.statusComment, null);
        assert.deepEqual(created.body.routeItems, [{ plannedStartDate: null, plannedEndDate: null, timeToPoint: null, distanceToPoint: null, creationDate: null, lastUpdateDate: null }]);
        assert.deepEqual(created.body.dimensions, { weight: 1, unit: null, width: null, height: null, length: null, volume: null });
        for (const key of ['account_id', 'somethingUnknown']) assert.equal(key in created.body, false, key);
        assert.equal((await server.api.delete(`${TASKS}/${created.body.taskID}`)).status, 204);
      });
    });
  });
}
