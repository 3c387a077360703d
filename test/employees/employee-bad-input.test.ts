import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ABSENT,
  ALL_WRITES,
  assertRefused,
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
import { createEmployee, employeeAsRead, LOCATIONS, startServer, SUBSCRIBERS, type Response, type TestServer } from '../helpers/server.js';
import { dialects } from '../helpers/stores.js';

/**
 * Bad input to `/v6/api/subscriberManagement/subscribers` (CONTRACT §1, §5): every query and
 * path parameter and every body field of POST, PUT and PATCH. A refusal answers the error
 * envelope with the contract's code (52 missing or null, 2 any other bad value, 12 unknown
 * employee, 409 code 4 a taken externalSubscriberID) and changes nothing; text fields keep
 * SQL-looking and unusual Unicode text exactly as sent.
 *
 * Null in a field that cannot be null is code 52 NULL_ARGUMENT, as CONTRACT §3 decides for
 * `name: null` on PATCH. Where CONTRACT leaves 2 or 52 open (an empty string in an optional
 * field that may not be empty), either is accepted.
 */

const fieldRows: FieldRow[] = [
  ['name', { code: 52 }, [ABSENT], WHOLE_WRITES],
  ['name', { code: 52 }, [null, '']],
  ['name', { code: 2 }, ['N'.repeat(201), 'N'.repeat(100_000), 42, true, ['Ivan'], { first: 'Ivan' }]],
  ['externalSubscriberID', { code: [2, 52] }, ['']],
  ['externalSubscriberID', { code: 2 }, [42, true, ['EMP-1'], { id: 'EMP-1' }, 'E'.repeat(201)]],
  ['deviceKey', { code: [2, 52] }, ['']],
  ['deviceKey', { code: 2 }, ['short', 'k'.repeat(129), 'has space', 'ключ-ключ-1', 'key🚚key🚚', 'tab\tkey12', "key' OR 1=1 --", 123_456_789, true]],
  ['regionID', { code: 2 }, ['abc', '7', 1.5, 0, -1, 2 ** 53, true, [7]]],
  ['isActive', { code: 52 }, [null]],
  ['isActive', { code: 2 }, ['true', 1, 0, 'yes', []]],
  ['subscriberTariffTypeID', { code: 2 }, [8, 14, 9.5, '9', -1, 'Premium']],
  ...['canTrack', 'canRequest', 'canSend', 'isLocateEnabled', 'isBlockEnabled'].flatMap((flag): [string, Refusal, unknown[]][] => [
    [flag, { code: 52 }, [null]],
    [flag, { code: 2 }, ['false', 0, 'on']],
  ]),
  ['phone', { code: 52 }, [null]],
  ['phone', { code: 2 }, [79_001_234_567, 'p'.repeat(51), ['7900']]],
  ['icon', { code: 52 }, [null]],
  ['icon', { code: 2 }, ['i'.repeat(501), 7, {}]],
  ['subscriberGroupID', { code: 2 }, ['g', 2.5, 0, -3, '3']],
  ['allowedOvertime', { code: 52 }, [null]],
  ['allowedOvertime', { code: 2 }, [-1, 1e7, '1.5', true]],
  ['workScheduleID', { code: 2 }, [1.5, 'x', -3, 0]],
  ['startLocationLatitude', { code: 2 }, [90.5, -91, '55.7', 1e308, true]],
  ['startLocationLongitude', { code: 2 }, [181, -180.5, '37.6', -1e308]],
  ['customFieldsFormTemplateID', { code: 2 }, [1.5, 'x', 0]],
  ['customFieldFormTemplateID', { code: 2 }, [1.5, 'x', -1]],
  ['subscriberTypeID', { code: 2 }, [1.5, -1, 'x', 2 ** 31]],
  ['userBossID', { code: 2 }, [1.5, 0, 'boss']],
  ['customFieldFormItems', { code: 52 }, [null]],
  ['customFieldFormItems', { code: 2 }, ['x', {}, Array.from({ length: 201 }, (_, i) => ({ externalID: `cf${i}`, name: 'n', type: 'text' }))]],
  ['competences', { code: 52 }, [null]],
  ['competences', { code: 2 }, ['x', { competenceID: 1 }]],
  ['zones', { code: 52 }, [null]],
  ['zones', { code: 2 }, ['x', { zoneID: 1, bindingType: 0 }]],
  ['mapObjects', { code: 52 }, [null]],
  ['mapObjects', { code: 2 }, ['x', { objectID: 9 }]],
  ['vehicleSettings', { code: 52 }, [null]],
  ['vehicleSettings', { code: 2 }, ['fast', [], 90]],
  ['vehicleSettings.speedLimit', { code: 52 }, [null]],
  ['vehicleSettings.speedLimit', { code: 2 }, [0, -10, 1000.5, '90', true]],
  ['vehicleSettings.prolongedSpeedSeconds', { code: 2 }, [0, 1.5, 86_401, '60']],
  ['vehicleSettings.fuelFillThreshold', { code: 2 }, [0, -1, 100_001, 'x']],
  ['vehicleSettings.fuelDrainThreshold', { code: 2 }, [0, -1, 100_001, 'x']],
  ['vehicleSettings.initialOdometer', { code: 2 }, [-1, 1e10, '0']],
  ['vehicleSettings.sensorLimits', { code: 52 }, [null]],
  ['vehicleSettings.sensorLimits', { code: 2 }, ['x', Array.from({ length: 201 }, (_, i) => ({ sensorID: i }))]],
];

const item = { externalID: 'cf1', name: 'Licence', value: 'B', type: 'String' };
const CF = 'customFieldFormItems';
const SL = 'vehicleSettings.sensorLimits';

/** Elements of the array fields: the key names the element by its index. */
const nestedCases: FieldCase[] = [
  { path: CF, value: [null], expect: { code: 52 }, named: `${CF}[0]` },
  { path: CF, value: [{ ...item, externalID: undefined }], expect: { code: 52 }, named: `${CF}[0].externalID` },
  { path: CF, value: [{ ...item, name: undefined }], expect: { code: 52 }, named: `${CF}[0].name` },
  { path: CF, value: [{ ...item, type: undefined }], expect: { code: 52 }, named: `${CF}[0].type` },
  { path: CF, value: [{ ...item, type: null }], expect: { code: 52 }, named: `${CF}[0].type` },
  // CONTRACT §3 (custom field types are the same for employees): any other type is code 2.
  ...['Strng', 'strings', 'string; DROP TABLE subscribers', 'ｓｔｒｉｎｇ', 'S'.repeat(21), 'datetime', 'int'].map(
    (type): FieldCase => ({ path: CF, value: [{ ...item, type }], expect: { code: 2 }, named: `${CF}[0].type` }),
  ),
  { path: CF, value: [{ ...item, type: '' }], expect: { code: [2, 52] }, named: `${CF}[0].type` },
  { path: CF, value: [{ ...item, type: 5 }], expect: { code: 2 }, named: `${CF}[0].type` },
  { path: CF, value: [item, { ...item, externalID: 'cf2', type: 'colour' }], expect: { code: 2 }, named: `${CF}[1].type` },
  { path: CF, value: [{ ...item, value: 5 }], expect: { code: 2 }, named: `${CF}[0].value` },
  { path: CF, value: [{ ...item, externalID: 5 }], expect: { code: 2 }, named: `${CF}[0].externalID` },
  { path: CF, value: [{ ...item, values: 'a' }], expect: { code: 2 }, named: `${CF}[0].values` },
  { path: CF, value: [{ ...item, values: ['a', 1] }], expect: { code: 2 }, named: `${CF}[0].values[1]` },
  { path: 'competences', value: [null], expect: { code: 52 }, named: 'competences[0]' },
  { path: 'competences', value: [{ level: 1 }], expect: { code: 52 }, named: 'competences[0].competenceID' },
  { path: 'competences', value: [{ competenceID: 1.5 }], expect: { code: 2 }, named: 'competences[0].competenceID' },
  { path: 'competences', value: [{ competenceID: 1, level: -1 }], expect: { code: 2 }, named: 'competences[0].level' },
  { path: 'competences', value: [{ competenceID: 1, efficiency: 'high' }], expect: { code: 2 }, named: 'competences[0].efficiency' },
  // Interface 2.9: bindingType 0 (main zone) or 1 (additional zone), nothing else.
  ...[2, -1, '0', 0.5, true, 'main'].map(
    (bindingType): FieldCase => ({ path: 'zones', value: [{ zoneID: 1, bindingType }], expect: { code: 2 }, named: 'zones[0].bindingType' }),
  ),
  { path: 'zones', value: [{ zoneID: 1, bindingType: null }], expect: { code: 52 }, named: 'zones[0].bindingType' },
  { path: 'zones', value: [{ zoneID: 1 }], expect: { code: 52 }, named: 'zones[0].bindingType' },
  { path: 'zones', value: [{ bindingType: 0 }], expect: { code: 52 }, named: 'zones[0].zoneID' },
  { path: 'zones', value: [{ zoneID: 1, bindingType: 0 }, { zoneID: 'x', bindingType: 1 }], expect: { code: 2 }, named: 'zones[1].zoneID' },
  { path: 'zones', value: [{ zoneID: 1.5, bindingType: 0 }], expect: { code: 2 }, named: 'zones[0].zoneID' },
  { path: 'zones', value: [{ zoneID: 0, bindingType: 0 }], expect: { code: 2 }, named: 'zones[0].zoneID' },
  { path: 'zones', value: [1, 2], expect: { code: 2 }, named: 'zones[0]' },
  { path: 'mapObjects', value: [9], expect: { code: 2 }, named: 'mapObjects[0]' },
  { path: 'mapObjects', value: [{}], expect: { code: 52 }, named: 'mapObjects[0].objectID' },
  { path: 'mapObjects', value: [{ objectID: 'x' }], expect: { code: 2 }, named: 'mapObjects[0].objectID' },
  { path: 'mapObjects', value: [{ objectID: 0 }], expect: { code: 2 }, named: 'mapObjects[0].objectID' },
  { path: 'mapObjects', value: [{ objectID: 1.5 }], expect: { code: 2 }, named: 'mapObjects[0].objectID' },
  { path: SL, value: [null], expect: { code: 52 }, named: `${SL}[0]` },
  { path: SL, value: [{ min: 1 }], expect: { code: 52 }, named: `${SL}[0].sensorID` },
  { path: SL, value: [{ sensorID: 1.5 }], expect: { code: 2 }, named: `${SL}[0].sensorID` },
  { path: SL, value: [{ sensorID: -1 }], expect: { code: 2 }, named: `${SL}[0].sensorID` },
  { path: SL, value: [{ sensorID: 1, min: 'low' }], expect: { code: 2 }, named: `${SL}[0].min` },
  { path: SL, value: [{ sensorID: 1, max: 1e10 }], expect: { code: 2 }, named: `${SL}[0].max` },
];

const cases = fieldCases(fieldRows, nestedCases);

const idValues: string[] = ['abc', '0', '-1', '1.5', HUGE_DIGITS, 'true', 'null', '١', '1;DROP TABLE subscribers', '1 OR 1=1', ''];
const idListQueries = (name: string): string[] => [
  ...idValues.map((v) => qs([name, v])),
  qs([name, '1,abc']),
  qs([name, '1'], [name, 'x']),
  qs([name + '[]', '1'], [name + '[]', '0']),
  qs([name + '[]', "' OR 1=1 --"]),
];

const listQueries: [string, Refusal][] = [
  ...['yes', '1', '0', '', 'null', 'true,false'].map((v): [string, Refusal] => [qs(['isActive', v]), { code: 2, field: 'isActive' }]),
  ['isActive=true&isActive=false', { code: 2, field: 'isActive' }],
  ...['maybe', '2', '', 'null'].map((v): [string, Refusal] => [qs(['withCustomTemplateItems', v]), { code: 2, field: 'withCustomTemplateItems' }]),
  ...idListQueries('subscriberIDs').map((q): [string, Refusal] => [q, { code: 2, field: /^subscriberIDs/ }]),
  ...idListQueries('subscriberGroupIDs').map((q): [string, Refusal] => [q, { code: 2, field: /^subscriberGroupIDs/ }]),
];

/** Path values for `{subscriberID}` that are no id at all: 400 code 2. */
const badIds: string[] = [
  'abc',
  '0',
  '-1',
  '1.5',
  '9007199254740992',
  HUGE_DIGITS,
  '1'.repeat(200),
  'null',
  encodeURIComponent('🚚'),
  encodeURIComponent('1;DROP TABLE subscribers'),
  encodeURIComponent("1' OR '1'='1"),
  '1%ZZ',
];

for (const dialect of dialects) {
  describe(`bad input to the employee routes on ${dialect}`, () => {
    let server: TestServer;
    let target: number;
    let other: number;
    let departed: number;

    /** Every living employee with every field. */
    const state = () => read(server.api, SUBSCRIBERS);

    const send: Record<Write, (body: unknown) => Promise<Response>> = {
      POST: (body) => server.api.post(SUBSCRIBERS, body),
      PUT: (body) => server.api.put(`${SUBSCRIBERS}/${target}`, body),
      PATCH: (body) => server.api.patch(`${SUBSCRIBERS}/${target}`, body),
    };
    const baseBody = (route: Write): Record<string, unknown> => (route === 'PATCH' ? {} : { name: 'Probe' });

    before(async () => {
      server = await startServer(dialect, { timeZone: 'Europe/Berlin' });
      target = await createEmployee(server.api, {
        name: 'Target',
        externalSubscriberID: 'EMP-TARGET',
        deviceKey: 'target-key-1',
        phone: '79001234567',
        customFieldFormItems: [item],
        zones: [{ zoneID: 5, bindingType: 0 }],
        vehicleSettings: { speedLimit: 70, sensorLimits: [{ sensorID: 1, min: -20, max: 8 }] },
      });
      other = await createEmployee(server.api, { name: 'Other', externalSubscriberID: 'EMP-OTHER', deviceKey: 'other-key-01' });
      departed = await createEmployee(server.api, { name: 'Departed', externalSubscriberID: 'EMP-GONE' });
      assert.equal((await server.api.delete(`${SUBSCRIBERS}/${departed}`)).status, 204);
    });
    after(() => server.close());

    describe('GET subscribers and lastLocations: query parameters', () => {
      for (const [query, expect] of listQueries) {
        it(`GET ?${shorten(decodeURIComponent(query))} → code 2`, async () => {
          await assertRefusedUnchanged(state, () => server.api.get(`${SUBSCRIBERS}?${query}`), expect, query);
        });
      }
      for (const query of idListQueries('subscriberIDs')) {
        it(`GET lastLocations?${decodeURIComponent(query)} → code 2`, async () => {
          await assertRefusedUnchanged(state, () => server.api.get(`${SUBSCRIBERS}/lastLocations?${query}`), { code: 2, field: /^subscriberIDs/ }, query);
        });
      }
    });

    describePathIdRefusals(
      'path {subscriberID}',
      state,
      [
        ['GET', (id) => server.api.get(`${SUBSCRIBERS}/${id}`)],
        ['PUT', (id) => server.api.put(`${SUBSCRIBERS}/${id}`, { name: 'Replaced' })],
        ['PATCH', (id) => server.api.patch(`${SUBSCRIBERS}/${id}`, { name: 'Patched' })],
        ['DELETE', (id) => server.api.delete(`${SUBSCRIBERS}/${id}`)],
      ],
      badIds,
      { code: 12, deleted: () => departed },
    );

    describe('GET externalID/{externalID}', () => {
      const unknown = [
        'EMP-NOBODY',
        'EMP-GONE', // deleted
        'EMP-TARGET ',
        'EMP-TARGE_',
        'EMP-%',
        '%',
        '*',
        ...sqlLooking,
      ];
      for (const externalID of unknown) {
        it(`answers 404 code 12 for ${show(externalID)}, matching nobody`, async () => {
          await assertRefusedUnchanged(state, () => server.api.get(`${SUBSCRIBERS}/externalID/${encodeURIComponent(externalID)}`), { code: 12 }, externalID);
        });
      }
      const odd: [string, string, Refusal][] = [
        ['longer than any external id (201 characters)', 'E'.repeat(201), { code: [2, 12] }],
        ['5,000 characters', 'E'.repeat(5000), { code: [2, 12] }],
        ['a NUL character', '%00', { code: [2, 12] }],
        ['a NUL inside', 'EMP%00TARGET', { code: [2, 12] }],
        ['a broken percent escape', 'EMP%ZZ', { code: 2 }],
        ['broken UTF-8', 'EMP%C3', { code: 2 }],
      ];
      for (const [name, raw, expect] of odd) {
        it(`answers ${name} with the envelope, code ${[expect.code].flat().join(' or ')}`, async () => {
          await assertRefusedUnchanged(state, () => server.api.get(`${SUBSCRIBERS}/externalID/${raw}`), expect, name);
        });
      }
    });

    describeBodyRefusals(
      state,
      [
        ['an array', JSON.stringify([{ name: 'Ivan' }]), {}, { code: 2 }],
        ['a string', JSON.stringify('Ivan'), {}, { code: 2 }],
        ['a number', '42', {}, { code: 2 }],
        ['true', 'true', {}, { code: 2 }],
        ['null', 'null', {}, { code: 52 }],
        ['an empty body', '', {}, { code: [2, 52] }],
        ['malformed JSON', '{"name": "Ivan",', {}, { code: 2 }],
        ['a __proto__ key', '{"name": "Ivan", "__proto__": {"isActive": false}}', {}, { code: 2 }],
        ['plain text', 'name=Ivan', { 'content-type': 'text/plain' }, { code: 1011 }],
        ['more than 1 MiB', JSON.stringify({ name: 'Ivan', icon: 'i'.repeat(1024 * 1024 + 1) }), {}, { code: 1010 }],
      ] satisfies BodyCase[],
      (route, text, headers) => server.api.request(route, route === 'POST' ? SUBSCRIBERS : `${SUBSCRIBERS}/${target}`, text, headers),
    );

    describeFieldRefusals(state, cases, send, baseBody);

    describe('conflicts', () => {
      for (const route of ALL_WRITES) {
        it(`${route} refuses another employee's externalSubscriberID with 409 code 4`, async () => {
          const body = { ...baseBody(route), externalSubscriberID: 'EMP-OTHER' };
          await assertRefusedUnchanged(state, () => send[route](body), { code: 4, field: 'externalSubscriberID' }, route);
        });
        it(`${route} refuses another employee's deviceKey with 409 code 1008`, async () => {
          const body = { ...baseBody(route), deviceKey: 'other-key-01' };
          await assertRefusedUnchanged(state, () => send[route](body), { code: 1008 }, route);
        });
      }
      it('a PUT or PATCH of an unknown employee with a valid body creates nothing', async () => {
        for (const r of [() => server.api.put(`${SUBSCRIBERS}/987654`, { name: 'Ghost' }), () => server.api.patch(`${SUBSCRIBERS}/987654`, { name: 'Ghost' })]) {
          await assertRefusedUnchanged(state, r, { code: 12 }, 'unknown');
        }
      });
    });

    describe('text is stored verbatim', () => {
      const samples = [...sqlLooking, ...unicodeSamples];
      samples.forEach((text, i) => {
        it(`round-trips ${show(text)} in every text field through POST, PUT and PATCH`, async () => {
          const fields = {
            name: text,
            phone: codePoints(text, 40),
            icon: text,
            externalSubscriberID: `X${i}-${text}`,
            customFieldFormItems: [{ externalID: text, name: text, value: text, values: [text, `${text}2`], type: 'Text' }],
          };
          const created = await server.api.post(SUBSCRIBERS, fields);
          assert.equal(created.status, 201, created.text);
          const id = created.body.subscriberID;
          for (const [key, value] of Object.entries(fields)) assert.deepEqual(created.body[key], value, `created ${key}`);
          assert.deepEqual((await server.api.get(`${SUBSCRIBERS}/${id}`)).body, employeeAsRead(created.body), 'read back by id');
          const byExternal = await server.api.get(`${SUBSCRIBERS}/externalID/${encodeURIComponent(fields.externalSubscriberID)}`);
          assert.equal(byExternal.status, 200, byExternal.text);
          assert.deepEqual(byExternal.body, employeeAsRead(created.body), 'read back by external id');

          const replaced = { ...fields, name: `${text} (PUT)`, icon: `(PUT) ${text}` };
          assert.equal((await server.api.put(`${SUBSCRIBERS}/${id}`, replaced)).status, 200);
          assert.equal((await server.api.patch(`${SUBSCRIBERS}/${id}`, { phone: codePoints(text, -30) })).status, 200);
          const final = (await server.api.get(`${SUBSCRIBERS}/${id}`)).body;
          assert.deepEqual(
            { name: final.name, icon: final.icon, phone: final.phone, items: final.customFieldFormItems },
            { name: replaced.name, icon: replaced.icon, phone: codePoints(text, -30), items: fields.customFieldFormItems },
          );
        });
      });

      it('leaves the tables intact after all of them: every employee and fix is still there', async () => {
        const all = (await server.api.get(SUBSCRIBERS)).body;
        assert.equal(all.length, 2 + samples.length);
        assert.ok(all.some((e: any) => e.subscriberID === target) && all.some((e: any) => e.subscriberID === other));
        assert.equal((await server.api.get(LOCATIONS)).status, 200);
      });

      it('finds an external id of the largest allowed length (200), with / ? # % and spaces in it', async () => {
        const externalSubscriberID = `a/b?c#d%e f-${'L'.repeat(188)}`;
        assert.equal(externalSubscriberID.length, 200);
        const id = await createEmployee(server.api, { name: 'Long id', externalSubscriberID });
        const r = await server.api.get(`${SUBSCRIBERS}/externalID/${encodeURIComponent(externalSubscriberID)}`);
        assert.equal(r.status, 200, r.text.slice(0, 200));
        assert.equal(r.body.subscriberID, id);
      });

      it('a NUL character in name or externalSubscriberID is kept exactly or refused with 400 code 2, never a 500', async () => {
        for (const body of [{ name: 'nul\u0000name' }, { name: 'NUL external', externalSubscriberID: 'nul\u0000ext' }]) {
          const before = await state();
          const r = await server.api.post(SUBSCRIBERS, body);
          if (r.status === 201) {
            const back = (await server.api.get(`${SUBSCRIBERS}/${r.body.subscriberID}`)).body;
            for (const [key, value] of Object.entries(body)) assert.equal(back[key], value, key);
          } else {
            assertRefused(r, { code: 2 }, JSON.stringify(body));
            assert.deepEqual(await state(), before);
          }
        }
      });

      it('text that is not well-formed Unicode (a lone surrogate) is kept exactly or refused with 400 code 2, never altered', async () => {
        const before = await state();
        const body = { name: 'half \ud83d of an emoji', externalSubscriberID: 'lone-\udc00' };
        const r = await server.api.post(SUBSCRIBERS, body);
        if (r.status === 201) {
          const back = (await server.api.get(`${SUBSCRIBERS}/${r.body.subscriberID}`)).body;
          assert.equal(back.name, body.name, 'name as sent');
          assert.equal(back.externalSubscriberID, body.externalSubscriberID, 'externalSubscriberID as sent');
        } else {
          assertRefused(r, { code: 2 }, 'lone surrogate');
          assert.deepEqual(await state(), before);
        }
      });
    });

    describe('unknown fields', () => {
      const unknown = {
        somethingUnknown: 'ignored',
        password: "'); DROP TABLE subscribers;--",
        account_id: 99,
        isOnline: true,
        lastLocation: { latitude: 1, longitude: 1 },
      };
      const nested = {
        vehicleSettings: { speedLimit: 50, turbo: true },
        customFieldFormItems: [{ ...item, colour: 'red' }],
        zones: [{ zoneID: 3, bindingType: 1, priority: 9 }],
        competences: [{ competenceID: 2, stars: 5 }],
        mapObjects: [{ objectID: 4, kind: 'depot' }],
      };
      const expectedNested = {
        vehicleSettings: { speedLimit: 50, prolongedSpeedSeconds: 60, fuelFillThreshold: 10, fuelDrainThreshold: 10, sensorLimits: [], initialOdometer: 0 },
        customFieldFormItems: [item],
        zones: [{ zoneID: 3, bindingType: 1 }],
        competences: [{ competenceID: 2 }],
        mapObjects: [{ objectID: 4 }],
      };
      const noUnknownKeys = (employee: any) => {
        for (const key of Object.keys(unknown)) if (key !== 'isOnline') assert.equal(key in employee, false, key);
        assert.equal(employee.isOnline, false, 'isOnline is the service’s to set');
        for (const [key, value] of Object.entries(expectedNested)) assert.deepEqual(employee[key], value, key);
      };

      it('POST ignores them, and a subscriberID in the body neither chooses the id nor touches that employee', async () => {
        const before = (await server.api.get(`${SUBSCRIBERS}/${target}`)).body;
        const r = await server.api.post(SUBSCRIBERS, { name: 'Fresh', subscriberID: target, ...unknown, ...nested });
        assert.equal(r.status, 201, r.text);
        assert.notEqual(r.body.subscriberID, target);
        noUnknownKeys(r.body);
        noUnknownKeys((await server.api.get(`${SUBSCRIBERS}/${r.body.subscriberID}`)).body);
        assert.deepEqual((await server.api.get(`${SUBSCRIBERS}/${target}`)).body, before);
      });

      it('PATCH with unknown fields only changes nothing', async () => {
        const before = await state();
        const r = await server.api.patch(`${SUBSCRIBERS}/${target}`, { ...unknown, subscriberID: other });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(await state(), before);
      });

      it('PUT ignores them: the path names the employee, not a subscriberID in the body', async () => {
        const otherBefore = (await server.api.get(`${SUBSCRIBERS}/${other}`)).body;
        const r = await server.api.put(`${SUBSCRIBERS}/${target}`, { name: 'Target again', subscriberID: other, ...unknown, ...nested });
        assert.equal(r.status, 200, r.text);
        const after = (await server.api.get(`${SUBSCRIBERS}/${target}`)).body;
        assert.equal(after.subscriberID, target);
        assert.equal(after.name, 'Target again');
        noUnknownKeys(after);
        assert.deepEqual((await server.api.get(`${SUBSCRIBERS}/${other}`)).body, otherBefore);
      });
    });
  });
}
