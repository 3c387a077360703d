import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ABSENT,
  assertEnvelopeShape,
  assertRefusedUnchanged,
  read,
  shorten,
  show,
  sqlLooking,
  withValue,
  type Refusal,
} from '../helpers/bad-input.js';
import { createEmployee, LOCATIONS, startServer, SUBSCRIBERS, type Response, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * Bad input to the positioning routes (CONTRACT §1, §6): every query parameter, path parameter
 * and body field gets its wrong types, out-of-range, missing, null, huge, unicode and SQL-looking
 * values. Each must answer the error envelope with the contract's status and code, and leave
 * the stored fixes as they were.
 *
 * Null in a field that cannot be null is code 52 NULL_ARGUMENT, as CONTRACT §3 decides for
 * `name: null` on PATCH; where CONTRACT leaves the choice between 2 and 52 open (an empty
 * string that is also unparseable), either is accepted.
 */

const NOW = Date.parse('2026-05-20T12:00:00Z');
const PERIOD = 'dateFrom=1900-01-02T00:00:00Z&dateTo=2100-01-01T00:00:00Z';
const WIDE = `${PERIOD}&count=1000`;
const HUGE_DIGITS = '9'.repeat(20);

/** A query string from pairs, encoded as a client would (a `+` of an offset must be %2B). */
const qs = (...pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

interface QueryCase {
  query: string;
  expect: Refusal;
  /** What is wrong, when the query alone does not say it. */
  name?: string;
}

const badDateTimes: [string, string][] = [
  ['words', 'yesterday'],
  ['30 February', '2026-02-30T00:00:00Z'],
  ['29 February of a common year', '2026-02-29T00:00:00Z'],
  ['month 13', '2026-13-01T00:00:00Z'],
  ['month 00', '2026-00-10T00:00:00Z'],
  ['hour 24', '2026-05-20T24:00:00Z'],
  ['minute 60', '2026-05-20T12:60:00Z'],
  ['second 60', '2026-05-20T12:00:60Z'],
  ['a date without time', '2026-05-20'],
  ['a space instead of T', '2026-05-20 12:00:00Z'],
  ['8 fraction digits', '2026-05-20T12:00:00.12345678Z'],
  ['offset +25:00', '2026-05-20T12:00:00+25:00'],
  ['offset without colon', '2026-05-20T12:00:00+0300'],
  ['epoch milliseconds', String(NOW)],
  ['full-width digits', '２０２６-05-20T12:00:00Z'],
  ['SQL after a valid date', "2026-05-20T12:00:00Z' OR 1=1 --"],
  ['10,000 characters', '2'.repeat(10_000)],
  ['empty', ''],
];

const idValues: [string, string][] = [
  ['a word', 'abc'],
  ['zero', '0'],
  ['negative', '-1'],
  ['a fraction', '1.5'],
  ['20 digits', HUGE_DIGITS],
  ['true', 'true'],
  ['null', 'null'],
  ['Arabic-Indic digit one', '١'],
  ['SQL', '1;DROP TABLE locations'],
  ['SQL OR', '1 OR 1=1'],
];

const listCases: QueryCase[] = [
  ...badDateTimes.map(([name, v]): QueryCase => ({ name, query: qs(['dateFrom', v]), expect: { code: 2, field: 'dateFrom' } })),
  ...badDateTimes.map(([name, v]): QueryCase => ({ name, query: qs(['dateTo', v]), expect: { code: 2, field: 'dateTo' } })),
  { query: qs(['dateFrom', '2026-05-19T00:00:00Z'], ['dateFrom', '2026-05-19T01:00:00Z']), expect: { code: 2, field: 'dateFrom' } },
  // CONTRACT §1: the two forms mixed is 225, a reversed period is 2 naming dateFrom.
  { query: qs(['dateFrom', '2026-05-19T00:00:00Z'], ['dateTo', '2026-05-20T00:00:00']), expect: { code: 225 } },
  { query: qs(['dateFrom', '2026-05-19T00:00:00'], ['dateTo', '2026-05-20T00:00:00+02:00']), expect: { code: 225 } },
  { query: qs(['dateFrom', '2026-05-19T00:00'], ['dateTo', '2026-05-20T00:00:00.5-03:30']), expect: { code: 225 } },
  { query: qs(['dateFrom', '2026-05-20T00:00:00Z'], ['dateTo', '2026-05-19T00:00:00Z']), expect: { code: 2, field: 'dateFrom' } },
  { query: qs(['dateFrom', '2026-05-20T00:00:00'], ['dateTo', '2026-05-19T23:59:59.999']), expect: { code: 2, field: 'dateFrom' } },
  { query: qs(['dateFrom', '2026-05-20T10:00:00+02:00'], ['dateTo', '2026-05-20T07:59:59Z']), expect: { code: 2, field: 'dateFrom' } },
  // dateTo omitted is now, so a dateFrom after now is a reversed period too.
  { query: qs(['dateFrom', '2026-05-21T00:00:00Z']), expect: { code: 2, field: 'dateFrom' } },

  ...idValues.map(([name, v]): QueryCase => ({ name, query: qs(['subscriberIDs', v]), expect: { code: 2, field: /^subscriberIDs/ } })),
  { query: 'subscriberIDs=', expect: { code: 2, field: /^subscriberIDs/ } },
  { query: qs(['subscriberIDs', '1,abc']), expect: { code: 2, field: /^subscriberIDs/ } },
  { query: qs(['subscriberIDs', '1'], ['subscriberIDs', 'abc']), expect: { code: 2, field: /^subscriberIDs/ } },
  { query: qs(['subscriberIDs[]', '1'], ['subscriberIDs[]', '-7']), expect: { code: 2, field: /^subscriberIDs/ } },
  { query: qs(['subscriberIDs[]', "' OR 1=1 --"]), expect: { code: 2, field: /^subscriberIDs/ } },

  { query: 'count=1001', expect: { code: 67, field: 'count' } },
  { query: `count=${HUGE_DIGITS}`, expect: { code: 67, field: 'count' } },
  { query: 'count=0', expect: { code: 2, field: 'count' } },
  { query: 'count=-1', expect: { code: 2, field: 'count' } },
  { query: 'count=10.5', expect: { code: 2, field: 'count' } },
  { query: 'count=ten', expect: { code: 2, field: 'count' } },
  { query: 'count=', expect: { code: 2, field: 'count' } },
  { query: 'count=null', expect: { code: 2, field: 'count' } },
  { query: 'count=10&count=20', expect: { code: 2, field: 'count' } },
  { query: qs(['count', '１０']), expect: { code: 2, field: 'count' } },
  { query: qs(['count', '10;DROP TABLE locations']), expect: { code: 2, field: 'count' } },

  ...idValues.map(([name, v]): QueryCase => ({ name, query: qs(['lastLocationID', v]), expect: { code: 2, field: 'lastLocationID' } })),
  { query: 'lastLocationID=', expect: { code: 2, field: 'lastLocationID' } },
];

/** Path values for `{locationID}` that are not a location id at all: 400 code 2. */
const badLocationIds: [string, string][] = [
  ['a word', 'abc'],
  ['zero', '0'],
  ['negative', '-1'],
  ['a fraction', '1.5'],
  ['2^53', '9007199254740992'],
  ['20 digits', HUGE_DIGITS],
  ['200 digits', '1'.repeat(200)],
  ['null', 'null'],
  ['an emoji', encodeURIComponent('🚚')],
  ['SQL', encodeURIComponent('1;DROP TABLE locations')],
  ['SQL OR', encodeURIComponent("1' OR '1'='1")],
  ['a broken percent escape', '1%ZZ'],
];

interface ItemCase {
  field: string;
  value: unknown;
  expect: Refusal;
  /** The key of validationErrors when it is not `[3].<field>`. */
  named?: string;
}

/** One field of one item, at index 3 of six, set to a bad value; each value of a row is one case. */
const itemRows: [string, Refusal, unknown[]][] = [
  ['subscriberID', { code: 52 }, [ABSENT, null]],
  ['subscriberID', { code: 2 }, ['1', 1.5, 0, -1, 2 ** 53, true, [1], {}, '1;DROP TABLE locations']],
  ['locationDate', { code: 52 }, [ABSENT, null]],
  ['locationDate', { code: [2, 52] }, ['']],
  [
    'locationDate',
    { code: 2 },
    [
      'now',
      '2026-02-29T10:00:00Z',
      '2026-05-20T10:00:00+19:00',
      '2026-05-21T12:00:01Z', // more than 24 hours ahead of the server's clock
      NOW,
      '２０２６-05-20T10:00:00Z',
      "2026-05-20T10:00:00Z'; DROP TABLE locations;--",
      '2'.repeat(100_000),
      { date: '2026-05-20T10:00:00Z' },
    ],
  ],
  ['latitude', { code: 52 }, [ABSENT, null]],
  ['latitude', { code: 2 }, [90.000001, -90.5, 1e308, -1e308, '55.7', true, [55.7], "55.7' OR 1=1 --"]],
  ['longitude', { code: 52 }, [ABSENT, null]],
  ['longitude', { code: 2 }, [180.5, -181, 1e308, '37.6', false, {}]],
  ['isValid', { code: 52 }, [null]],
  ['isValid', { code: 2 }, ['true', 1, 0, 'yes', []]],
  ['angle', { code: 52 }, [null]],
  ['angle', { code: 2 }, [-1, 361, 90.5, '90', 1e20, true]],
  ['velocity', { code: 52 }, [null]],
  ['velocity', { code: 2 }, [-0.1, 10_000.5, '42', 1e308]],
  ['fuelLevel', { code: 52 }, [null]],
  ['fuelLevel', { code: 2 }, [-1, 1e6 + 1, '50']],
  ['ignition', { code: 52 }, [null]],
  ['ignition', { code: 2 }, ['on', 1, 'true']],
  ['externalPower', { code: 52 }, [null]],
  ['externalPower', { code: 2 }, ['false', 0]],
  ['odometer', { code: 2 }, [-1, 1e9 + 1, '12000']],
  ['engineHours', { code: 2 }, [-0.5, 1e7 + 1, 'x']],
  ['sensors', { code: 52 }, [null]],
  ['sensors', { code: 2 }, ['x', {}, 5, Array.from({ length: 101 }, (_, i) => ({ sensorID: i, value: 1 }))]],
];

const itemCases: ItemCase[] = [
  ...itemRows.flatMap(([field, expect, values]) => values.map((value): ItemCase => ({ field, value, expect }))),
  { field: 'sensors', value: [null], expect: { code: 52 }, named: '[3].sensors[0]' },
  { field: 'sensors', value: [{ value: 1 }], expect: { code: 52 }, named: '[3].sensors[0].sensorID' },
  { field: 'sensors', value: [{ sensorID: 1 }], expect: { code: 52 }, named: '[3].sensors[0].value' },
  { field: 'sensors', value: [{ sensorID: 1, value: null }], expect: { code: 52 }, named: '[3].sensors[0].value' },
  { field: 'sensors', value: [{ sensorID: -1, value: 1 }], expect: { code: 2 }, named: '[3].sensors[0].sensorID' },
  { field: 'sensors', value: [{ sensorID: 1.5, value: 1 }], expect: { code: 2 }, named: '[3].sensors[0].sensorID' },
  { field: 'sensors', value: [{ sensorID: 2 ** 31, value: 1 }], expect: { code: 2 }, named: '[3].sensors[0].sensorID' },
  { field: 'sensors', value: [{ sensorID: 1, value: '1' }], expect: { code: 2 }, named: '[3].sensors[0].value' },
  { field: 'sensors', value: [{ sensorID: 1, value: 1 }, { sensorID: 2, value: 1e13 }], expect: { code: 2 }, named: '[3].sensors[1].value' },
];

for (const dialect of dialects) {
  describe(`bad input to the locations routes on ${dialect}`, () => {
    let server: TestServer;
    let ivan: number;
    let olga: number;
    let departed: number;
    let strangers: number;
    let stored: number;

    /** Every stored fix (a wide period, newest first) and the latest of each employee. */
    const state = async () => [await read(server.api, `${LOCATIONS}?${WIDE}`), await read(server.api, `${SUBSCRIBERS}/lastLocations`)];

    /** A good item with every field of CONTRACT §6 set, so each case replaces a valid value. */
    const goodItem = (i: number): Record<string, unknown> => ({
      subscriberID: i % 2 === 0 ? ivan : olga,
      locationDate: new Date(NOW - 3_600_000 + i * 60_000).toISOString(),
      isValid: true,
      latitude: 52.52 + i / 1000,
      longitude: 13.405,
      angle: 90,
      velocity: 35.5,
      fuelLevel: 40,
      ignition: true,
      externalPower: true,
      odometer: 12_000,
      engineHours: 300,
      sensors: [{ sensorID: 1, value: 4.5 }],
    });
    const goodBatch = (length = 6) => Array.from({ length }, (_, i) => goodItem(i));

    before(async () => {
      server = await startServer(dialect, { now: NOW, timeZone: 'Europe/Berlin' });
      ivan = await createEmployee(server.api, { name: 'Ivan' });
      olga = await createEmployee(server.api, { name: 'Olga' });
      departed = await createEmployee(server.api, { name: 'Departed' });
      const posted = await server.api.post(LOCATIONS, [...goodBatch(), { ...goodItem(0), subscriberID: departed }]);
      assert.equal(posted.status, 201, posted.text);
      assert.equal((await server.api.delete(`${SUBSCRIBERS}/${departed}`)).status, 204);
      const stranger = await server.newAccount();
      strangers = await createEmployee(stranger.api, { name: 'Not ours' });
      stored = (await server.api.get(`${LOCATIONS}?${WIDE}`)).body[0].locationID;
    });
    after(() => server.close());

    describe('GET locations: query parameters', () => {
      for (const c of listCases) {
        const codes = [c.expect.code].flat().join(' or ');
        it(`?${shorten(decodeURIComponent(c.query))}${c.name ? ` (${c.name})` : ''} → code ${codes}`, async () => {
          await assertRefusedUnchanged(state, () => server.api.get(`${LOCATIONS}?${c.query}`), c.expect, c.query.slice(0, 80));
        });
      }

      it('answers a query string too large to read with the error envelope', async () => {
        const r = await server.api.get(`${LOCATIONS}?dateFrom=${'2'.repeat(20_000)}`);
        assert.ok([400, 414, 431].includes(r.status), `status ${r.status}`);
        assertEnvelopeShape(r, 'a 20,000-character query');
      });
    });

    describe('GET locations/{locationID}', () => {
      for (const [name, value] of badLocationIds) {
        it(`refuses ${name} (${show(value)}) with 400 code 2`, async () => {
          await assertRefusedUnchanged(state, () => server.api.get(`${LOCATIONS}/${value}`), { code: 2 }, value);
        });
      }

      it('answers 404 code 1001 for ids that are well formed but unknown', async () => {
        for (const id of [stored + 1, 987_654_321, Number.MAX_SAFE_INTEGER]) {
          await assertRefusedUnchanged(state, () => server.api.get(`${LOCATIONS}/${id}`), { code: 1001 }, String(id));
        }
      });
    });

    describe('POST locations: the body as a whole', () => {
      const bodies: [string, unknown, Refusal][] = [
        ['an object', { subscriberID: 1 }, { code: 2 }],
        ['a string', 'locations', { code: 2 }],
        ['a number', 42, { code: 2 }],
        ['true', true, { code: 2 }],
        ['null', null, { code: 52 }],
        ['an empty array', [], { code: 2 }],
        ['an array holding null', [null], { code: 52, field: '[0]' }],
        ['an array holding a string', ['{"subscriberID":1}'], { code: 2, field: '[0]' }],
        ['an array holding an array', [[]], { code: 2, field: '[0]' }],
      ];
      for (const [name, body, expect] of bodies) {
        it(`refuses ${name} with code ${[expect.code].flat().join(' or ')}`, async () => {
          // JSON text, so that null, strings and numbers arrive as the JSON values they are.
          const text = JSON.stringify(body);
          await assertRefusedUnchanged(state, () => server.api.post(LOCATIONS, text, { 'content-type': 'application/json' }), expect, name);
        });
      }

      it('refuses 10,001 items (the limit is 10,000) with code 2', async () => {
        const batch = Array.from({ length: 10_001 }, (_, i) => ({ ...goodItem(0), locationDate: new Date(NOW - 20_000_000 + i * 1000).toISOString() }));
        const r = await assertRefusedUnchanged(state, () => server.api.post(LOCATIONS, batch), { code: 2 }, '10,001 items');
        assert.match(r.text, /10[,.]?000/, 'the answer names the limit');
      });

      it('refuses malformed JSON, an empty JSON body and non-JSON bodies', async () => {
        const cases: [string, string, Record<string, string>, Refusal][] = [
          ['a truncated array', '[{"subscriberID": 1,', { 'content-type': 'application/json' }, { code: 2 }],
          ['a trailing comma', `[${JSON.stringify(goodItem(0))},]`, { 'content-type': 'application/json' }, { code: 2 }],
          ['an empty body', '', { 'content-type': 'application/json' }, { code: [2, 52] }],
          ['plain text', 'subscriberID=1', { 'content-type': 'text/plain' }, { code: 1011 }],
          ['a form', 'subscriberID=1&latitude=1', { 'content-type': 'application/x-www-form-urlencoded' }, { code: 1011 }],
          ['nested 5,000 deep', `[${'['.repeat(5000)}${']'.repeat(5000)}]`, { 'content-type': 'application/json' }, { code: 2 }],
          ['Infinity as 1e999', `[${JSON.stringify(goodItem(0)).replace('"latitude":52.52', '"latitude":1e999')}]`, { 'content-type': 'application/json' }, { code: 2, field: '[0].latitude' }],
        ];
        for (const [name, text, headers, expect] of cases) {
          await assertRefusedUnchanged(state, () => server.api.post(LOCATIONS, text, headers), expect, name);
        }
      });
    });

    describe('POST locations: one bad field of one item among good ones', () => {
      for (const c of itemCases) {
        const named = c.named ?? `[3].${c.field}`;
        const label = `${c.field} ${show(c.value)}`;
        it(`refuses ${label} with code ${[c.expect.code].flat().join(' or ')} naming ${named}`, async () => {
          const batch = goodBatch().map((item, i) => (i === 3 ? withValue(item, c.field, c.value) : item));
          await assertRefusedUnchanged(state, () => server.api.post(LOCATIONS, batch), { ...c.expect, field: named }, label);
        });
      }

      const unknownSubscribers: [string, () => number][] = [
        ['an id no employee has', () => 987_654],
        ['a deleted employee', () => departed],
        ["another account's employee", () => strangers],
      ];
      for (const [name, id] of unknownSubscribers) {
        it(`refuses ${name} with 404 code 12 naming [3].subscriberID`, async () => {
          const batch = goodBatch().map((item, i) => (i === 3 ? { ...item, subscriberID: id() } : item));
          await assertRefusedUnchanged(state, () => server.api.post(LOCATIONS, batch), { code: 12, field: '[3].subscriberID' }, name);
        });
      }

      it('names the first and the last item by their index too', async () => {
        for (const index of [0, 5]) {
          const batch = goodBatch().map((item, i) => (i === index ? { ...item, longitude: 200 } : item));
          await assertRefusedUnchanged(state, () => server.api.post(LOCATIONS, batch), { code: 2, field: `[${index}].longitude` }, `index ${index}`);
        }
      });

      it('the same six items without the bad one are accepted (the cases above fail for their one field)', async () => {
        const r = await server.api.post(LOCATIONS, goodBatch());
        assert.equal(r.status, 201, r.text);
        assert.deepEqual(r.body, { accepted: 6 });
      });
    });

    describe('SQL-looking text where numbers or date-times are expected', () => {
      const slots: [string, (sql: string) => Promise<Response>][] = [
        ['query subscriberIDs', (sql) => server.api.get(`${LOCATIONS}?${qs(['subscriberIDs', sql])}`)],
        ['query subscriberIDs[]', (sql) => server.api.get(`${LOCATIONS}?${qs(['subscriberIDs[]', `${ivan}`], ['subscriberIDs[]', sql])}`)],
        ['query count', (sql) => server.api.get(`${LOCATIONS}?${qs(['count', sql])}`)],
        ['query lastLocationID', (sql) => server.api.get(`${LOCATIONS}?${qs(['lastLocationID', sql])}`)],
        ['query dateFrom', (sql) => server.api.get(`${LOCATIONS}?${qs(['dateFrom', sql])}`)],
        ['query dateTo', (sql) => server.api.get(`${LOCATIONS}?${qs(['dateTo', sql])}`)],
        ['path locationID', (sql) => server.api.get(`${LOCATIONS}/${encodeURIComponent(sql)}`)],
        ['item subscriberID', (sql) => server.api.post(LOCATIONS, [{ ...goodItem(0), subscriberID: sql }])],
        ['item locationDate', (sql) => server.api.post(LOCATIONS, [{ ...goodItem(0), locationDate: sql }])],
        ['item latitude', (sql) => server.api.post(LOCATIONS, [{ ...goodItem(0), latitude: sql }])],
        ['item angle', (sql) => server.api.post(LOCATIONS, [{ ...goodItem(0), angle: sql }])],
        ['item sensors[0].value', (sql) => server.api.post(LOCATIONS, [{ ...goodItem(0), sensors: [{ sensorID: 1, value: sql }] }])],
      ];
      for (const [slot, send] of slots) {
        it(`refuses them in ${slot} with 400 code 2 and the table stays intact`, async () => {
          for (const sql of sqlLooking) await assertRefusedUnchanged(state, () => send(sql), { code: 2 }, `${slot} = ${sql}`);
          const listed = await server.api.get(`${LOCATIONS}?${WIDE}`);
          assert.equal(listed.status, 200);
          assert.ok(listed.body.length >= 7, 'the fixes stored before are still there');
        });
      }
    });

    describe('unknown fields', () => {
      it('are ignored, not stored: a posted locationID is not used and no extra field comes back', async () => {
        const item: Record<string, unknown> = {
          ...goodItem(1),
          // A position not posted before: the same fix sent again would be acknowledged, not stored.
          latitude: 52.52345,
          locationID: 777_777,
          accountID: 99,
          account_id: 99,
          receivedAt: '2026-01-01T00:00:00Z',
          comment: "'); DROP TABLE locations;--",
          sensors: [{ sensorID: 3, value: 1, unit: 'bar' }],
        };
        const r = await server.api.post(LOCATIONS, [item]);
        assert.equal(r.status, 201, r.text);
        const newest = (await server.api.get(`${LOCATIONS}?${PERIOD}&count=1`)).body[0];
        assert.notEqual(newest.locationID, 777_777);
        assert.deepEqual(Object.keys(newest).sort(), ['angle', 'isValid', 'latitude', 'locationDate', 'locationID', 'longitude', 'subscriberID', 'velocity']);
        assert.equal(newest.latitude, item.latitude);
        assert.deepEqual((await server.api.get(`${LOCATIONS}/${newest.locationID}`)).body, newest);
        const ghost = await server.api.get(`${LOCATIONS}/777777`);
        assert.equal(ghost.status, 404);
      });
    });
  });
}
