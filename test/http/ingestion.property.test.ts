import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { ABSENT, assertRefused, read, type Refusal } from '../helpers/bad-input.js';
import { createEmployee, LOCATIONS, startServer, SUBSCRIBERS, type TestServer } from '../helpers/server.js';

/**
 * The ingestion batch is all or nothing (CONTRACT §6): random batches of good fixes with exactly
 * one item corrupted in one random field are refused, naming that item by its index, and store
 * nothing; the same batch without the corruption is accepted. SQLite only: this is about the
 * validator, and the dialect-specific storage is covered by the example-based tests.
 */

const NOW = Date.parse('2026-05-20T12:00:00Z');
const MINUTE = 60_000;
/** The newest fixes of all time: ids only grow, so anything stored would show at the top. */
const NEWEST = `${LOCATIONS}?dateFrom=1900-01-02T00:00:00Z&dateTo=2100-01-01T00:00:00Z&count=50`;
const GRAMMAR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,7})?)?(?:Z|[+-]\d{2}:\d{2})?$/;

type Item = Record<string, unknown>;

/** One corruption: the field it breaks (as validationErrors names it after `[i].`) and the refusal expected. */
interface Corruption {
  field: string;
  expect: Refusal;
  apply: (item: Item) => Item;
  label: string;
}

const set = (field: string, value: unknown, expect: Refusal, named = field): Corruption => ({
  field: named,
  expect,
  label: `${field} = ${value === ABSENT ? 'absent' : JSON.stringify(value)?.slice(0, 60)}`,
  apply: (item) => {
    const copy = { ...item };
    if (value === ABSENT) delete copy[field];
    else copy[field] = value;
    return copy;
  },
});

const notNumber = fc.oneof(fc.string({ maxLength: 10 }), fc.boolean(), fc.constant([]), fc.constant({}));
const notBoolean = fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.constant([]));
const fraction = fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter((v) => !Number.isInteger(v));
// The filters drop -0, which fast-check counts as below 0 but JSON writes as 0.
const above = (limit: number) => fc.double({ min: limit, max: 1e300, minExcluded: true, noNaN: true }).filter((v) => v > limit);
const below = (limit: number) => fc.double({ min: -1e300, max: limit, maxExcluded: true, noNaN: true }).filter((v) => v < limit);
const missingOrNull = (field: string) => fc.constantFrom(ABSENT, null).map((v) => set(field, v, { code: 52 }));

const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  missingOrNull('subscriberID'),
  fc.oneof(fraction, fc.integer({ max: 0 }), notNumber, fc.constant(2 ** 53)).map((v) => set('subscriberID', v, { code: 2 })),
  fc.integer({ min: 100_000, max: 2_000_000_000 }).map((v) => set('subscriberID', v, { code: 12 })),
  missingOrNull('locationDate'),
  fc
    .oneof(
      fc.string({ maxLength: 30 }).filter((s) => !GRAMMAR.test(s)),
      fc.constantFrom('2026-02-30T10:00:00Z', '2025-02-29T10:00:00Z', '2026-05-20T24:00:00Z', '2026-05-20T10:00:00+19:00'),
    )
    .map((v) => set('locationDate', v, { code: v === '' ? [2, 52] : 2 })),
  fc.integer({ min: 24 * 60 + 1, max: 10 * 365 * 24 * 60 }).map((m) => set('locationDate', new Date(NOW + m * MINUTE).toISOString(), { code: 2 })),
  fc.oneof(fc.integer(), fc.boolean(), fc.constant({})).map((v) => set('locationDate', v, { code: 2 })),
  missingOrNull('latitude'),
  fc.oneof(above(90), below(-90), notNumber).map((v) => set('latitude', v, { code: 2 })),
  missingOrNull('longitude'),
  fc.oneof(above(180), below(-180), notNumber).map((v) => set('longitude', v, { code: 2 })),
  notBoolean.map((v) => set('isValid', v, { code: 2 })),
  fc.oneof(fc.integer({ min: 361 }), fc.integer({ max: -1 }), fc.double({ min: 0, max: 360, noNaN: true }).filter((v) => !Number.isInteger(v)), notNumber).map((v) => set('angle', v, { code: 2 })),
  fc.oneof(above(10_000), below(0), notNumber).map((v) => set('velocity', v, { code: 2 })),
  fc.oneof(above(1e6), below(0), notNumber).map((v) => set('fuelLevel', v, { code: 2 })),
  notBoolean.map((v) => set('ignition', v, { code: 2 })),
  notBoolean.map((v) => set('externalPower', v, { code: 2 })),
  fc.oneof(above(1e9), below(0), notNumber).map((v) => set('odometer', v, { code: 2 })),
  fc.oneof(above(1e7), below(0), notNumber).map((v) => set('engineHours', v, { code: 2 })),
  fc.constantFrom('isValid', 'angle', 'velocity', 'fuelLevel', 'ignition', 'externalPower', 'sensors').map((f) => set(f, null, { code: 52 })),
  fc
    .tuple(fc.integer({ min: 0, max: 4 }), fc.oneof(fc.integer({ max: -1 }), fraction, fc.constantFrom(2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER), notNumber))
    .map(([k, id]) => sensorsWith(k, { sensorID: id, value: 1 }, { code: 2 }, 'sensorID')),
  fc
    .tuple(fc.integer({ min: 0, max: 4 }), fc.oneof(above(1e12), below(-1e12), notNumber))
    .map(([k, value]) => sensorsWith(k, { sensorID: 1, value }, { code: 2 }, 'value')),
  fc.integer({ min: 0, max: 4 }).map((k) => sensorsWith(k, { value: 1 }, { code: 52 }, 'sensorID')),
);

/** Sensors with `k` good readings, then a bad one: the error names that reading. */
function sensorsWith(k: number, bad: Item, expect: Refusal, field: string): Corruption {
  const sensors = [...Array.from({ length: k }, (_, i) => ({ sensorID: i, value: i * 1.5 })), bad];
  return { ...set('sensors', sensors, expect, `sensors[${k}].${field}`), label: `sensors[${k}] = ${JSON.stringify(bad)}` };
}

describe('ingestion validator (property, SQLite)', () => {
  let server: TestServer;
  let employees: number[];

  before(async () => {
    server = await startServer('sqlite', { now: NOW, timeZone: 'Europe/Berlin' });
    employees = [await createEmployee(server.api, { name: 'Ivan' }), await createEmployee(server.api, { name: 'Olga' })];
  });
  after(() => server.close());

  const state = async () => [await read(server.api, NEWEST), await read(server.api, `${SUBSCRIBERS}/lastLocations`)];

  /** A valid fix: required fields plus any subset of the optional ones, dated in the last week (the future 24 h are allowed). */
  const goodItem = () =>
    fc.record(
      {
        subscriberID: fc.constantFrom(...employees),
        locationDate: fc
          .tuple(fc.integer({ min: NOW - 7 * 24 * 60 * MINUTE, max: NOW + 20 * 60 * MINUTE }), fc.constantFrom('Z', '+05:30', '-03:00', 'local'))
          .map(([ms, form]) => dateText(ms, form)),
        latitude: fc.double({ min: -90, max: 90, noNaN: true }),
        longitude: fc.double({ min: -180, max: 180, noNaN: true }),
        isValid: fc.boolean(),
        angle: fc.integer({ min: 0, max: 360 }),
        velocity: fc.double({ min: 0, max: 10_000, noNaN: true }),
        fuelLevel: fc.double({ min: 0, max: 1e6, noNaN: true }),
        ignition: fc.boolean(),
        externalPower: fc.boolean(),
        odometer: fc.double({ min: 0, max: 1e9, noNaN: true }),
        engineHours: fc.double({ min: 0, max: 1e7, noNaN: true }),
        sensors: fc.array(fc.record({ sensorID: fc.integer({ min: 0, max: 2 ** 31 - 1 }), value: fc.double({ min: -1e12, max: 1e12, noNaN: true }) }), { maxLength: 5 }),
      },
      { requiredKeys: ['subscriberID', 'locationDate', 'latitude', 'longitude'] },
    );

  it('one corrupted item among good ones is named by its index, and nothing is stored', async () => {
    const scenario = fc
      .array(goodItem(), { minLength: 1, maxLength: 40 })
      .chain((batch) => fc.record({ batch: fc.constant(batch), index: fc.integer({ min: 0, max: batch.length - 1 }), corruption }));

    await fc.assert(
      fc.asyncProperty(scenario, async ({ batch, index, corruption: c }) => {
        const corrupted = batch.map((item, i) => (i === index ? c.apply(item) : item));
        const before = await state();
        const r = await server.api.post(LOCATIONS, corrupted);
        const label = `item ${index} of ${batch.length}: ${c.label}`;
        assertRefused(r, { ...c.expect, field: `[${index}].${c.field}` }, label);
        for (const key of Object.keys(r.body.validationErrors)) assert.ok(key.startsWith(`[${index}]`), `${label}: only item ${index} is named, not ${key}`);
        assert.deepEqual(await state(), before, `${label}: nothing stored`);

        // The same batch without the corruption is good: the refusal was that item's alone.
        const good = await server.api.post(LOCATIONS, batch);
        assert.equal(good.status, 201, `${label}: the uncorrupted batch: ${good.text.slice(0, 300)}`);
        assert.deepEqual(good.body, { accepted: batch.length });
      }),
      // Each run is four HTTP calls; shrinking a 40-item batch would take thousands, so a failure is
      // reported as found, and the assertion messages name the item and the corruption.
      { numRuns: 150, endOnFailure: true },
    );
  });
});

/** An instant written with Z, a fixed offset, or as a local time of the account's zone (Berlin, +02:00 all through May 2026). */
function dateText(ms: number, form: string): string {
  if (form === 'Z') return new Date(ms).toISOString();
  const offsetMinutes = form === 'local' ? 120 : (form.startsWith('-') ? -1 : 1) * (Number(form.slice(1, 3)) * 60 + Number(form.slice(4, 6)));
  const wall = new Date(ms + offsetMinutes * MINUTE).toISOString().slice(0, 23);
  return form === 'local' ? wall : `${wall}${form}`;
}
