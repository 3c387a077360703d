import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Client, Response } from './server.js';

/**
 * Shared pieces of the bad-input tests: the error envelope of CONTRACT §1 checked field by
 * field, "nothing changed" checked by reading state back through the API, and the suites every
 * resource's routes share (bad path ids, bad bodies, one bad field at a time).
 */

/** The codes these tests expect, with the status and description CONTRACT §1 gives each. */
export const errorCodes: Record<number, { status: number; description: string }> = {
  2: { status: 400, description: 'BAD_REQUEST' },
  4: { status: 409, description: 'SUBSCRIBER_EXTERNAL_ID_EXISTS' },
  12: { status: 404, description: 'NO_SUCH_SUBSCRIBER' },
  18: { status: 404, description: 'TASK_NOT_FOUND' },
  22: { status: 400, description: 'TITLE_IS_NEEDED' },
  52: { status: 400, description: 'NULL_ARGUMENT' },
  66: { status: 400, description: 'COUNT_LIMIT_EXCEEDED' },
  67: { status: 400, description: 'INVALID_NUMBER_OF_ELEMENTS' },
  225: { status: 400, description: 'REQUEST_DATE_TIME_INCONSISTENT_FORMAT' },
  588: { status: 429, description: 'REQUESTED_TOO_OFTEN' },
  1001: { status: 404, description: 'LOCATION_NOT_FOUND' },
  1008: { status: 409, description: 'CONFLICT' },
  1010: { status: 413, description: 'PAYLOAD_TOO_LARGE' },
  1011: { status: 415, description: 'UNSUPPORTED_MEDIA_TYPE' },
  1018: { status: 404, description: 'SUBSCRIBER_GROUP_NOT_FOUND' },
  1019: { status: 409, description: 'SUBSCRIBER_GROUP_NOT_EMPTY' },
  1020: { status: 404, description: 'CUSTOM_FIELD_TEMPLATE_NOT_FOUND' },
  1021: { status: 404, description: 'FORM_NOT_FOUND' },
  1022: { status: 404, description: 'SUBSCRIBER_REQUEST_NOT_FOUND' },
  1024: { status: 404, description: 'RETRANSLATOR_NOT_FOUND' },
};

export interface Refusal {
  /** The code expected; a list where CONTRACT leaves the choice between them open. */
  code: number | number[];
  /** A key `validationErrors` must hold: exact, or a pattern for names like `subscriberIDs[0]`. */
  field?: string | RegExp;
}

const ENVELOPE_KEYS = new Set(['status', 'code', 'description', 'message', 'validationErrors']);

/** Any error envelope at all: the shape CONTRACT §1 promises for every error path. */
export function assertEnvelopeShape(r: Response, label = ''): void {
  assert.match(r.headers.get('content-type') ?? '', /^application\/json/, `${label}: JSON error body (got ${r.status} ${r.text.slice(0, 200)})`);
  const body = r.body;
  assert.ok(body !== null && typeof body === 'object' && !Array.isArray(body), `${label}: an object body`);
  for (const key of Object.keys(body)) assert.ok(ENVELOPE_KEYS.has(key), `${label}: unexpected key ${key} in ${r.text.slice(0, 200)}`);
  assert.equal(body.status, r.status, `${label}: status in the body equals the HTTP status`);
  assert.ok(Number.isInteger(body.code), `${label}: integer code`);
  assert.equal(typeof body.description, 'string', `${label}: description`);
  assert.equal(typeof body.message, 'string', `${label}: message`);
  assert.doesNotMatch(body.message, /\n\s+at |\.ts:\d+|\.js:\d+/, `${label}: no stack trace`);
  if (body.validationErrors !== undefined) {
    assert.equal(typeof body.validationErrors, 'object', `${label}: validationErrors is an object`);
    for (const [key, why] of Object.entries(body.validationErrors)) {
      assert.equal(typeof why, 'string', `${label}: validationErrors.${key} is a string`);
    }
  }
}

/** The envelope with the expected code, its status and description, naming `field` when given. */
export function assertRefused(r: Response, expected: Refusal, label = ''): void {
  const codes = Array.isArray(expected.code) ? expected.code : [expected.code];
  const tag = `${label} (answered ${r.status} ${r.text.slice(0, 300)})`;
  assertEnvelopeShape(r, tag);
  assert.ok(codes.includes(r.body.code), `${tag}: code ${codes.join(' or ')}`);
  const kind = errorCodes[r.body.code as number];
  assert.ok(kind, `${tag}: a known code`);
  assert.equal(r.status, kind.status, `${tag}: HTTP status of code ${r.body.code}`);
  assert.equal(r.body.description, kind.description, `${tag}: description`);
  if (expected.field !== undefined) {
    const errors: Record<string, string> = r.body.validationErrors ?? {};
    const keys = Object.keys(errors);
    const field = expected.field;
    const hit = typeof field === 'string' ? keys.find((k) => k === field) : keys.find((k) => field.test(k));
    assert.ok(hit !== undefined, `${tag}: validationErrors names ${String(field)}`);
    assert.ok(errors[hit]!.length > 0, `${tag}: validationErrors.${hit} says why`);
  }
}

/** Runs `act`, checks the refusal, and checks that `read` answers the same before and after. */
export async function assertRefusedUnchanged(
  read: () => Promise<unknown>,
  act: () => Promise<Response>,
  expected: Refusal,
  label = '',
): Promise<Response> {
  const before = await read();
  const r = await act();
  assertRefused(r, expected, label);
  assert.deepEqual(await read(), before, `${label}: a refused request changes nothing`);
  return r;
}

/** A GET that must succeed; its body is the state snapshot. */
export async function read(api: Client, path: string): Promise<unknown> {
  const r = await api.get(path);
  assert.equal(r.status, 200, `reading ${path}: ${r.status} ${r.text.slice(0, 200)}`);
  return r.body;
}

/** Marks a field to leave out of a body (as opposed to sending it as null). */
export const ABSENT = Symbol('absent');

/** `base` with the value at a dotted path (`vehicleSettings.speedLimit`) set, or removed for ABSENT. */
export function withValue(base: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  const parts = path.split('.');
  let target: Record<string, unknown> = copy;
  for (const part of parts.slice(0, -1)) {
    if (typeof target[part] !== 'object' || target[part] === null) target[part] = {};
    target = target[part] as Record<string, unknown>;
  }
  const last = parts.at(-1)!;
  if (value === ABSENT) delete target[last];
  else target[last] = value;
  return copy;
}

/** Readable labels for values in test names: long strings are shortened, ABSENT says so. */
export function show(value: unknown): string {
  if (value === ABSENT) return 'absent';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return shorten(JSON.stringify(value) ?? String(value));
}

/** Long text cut for test names: its start and its length. */
export function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 40)}… (${text.length} chars)` : text;
}

/** Strings that look like SQL: stored verbatim where the type is text, refused where it is numeric. */
export const sqlLooking = [
  '1;DROP TABLE locations',
  "' OR 1=1 --",
  "Robert'); DROP TABLE subscribers;--",
  '"; DELETE FROM subscribers WHERE ""="',
  '1 UNION SELECT token_hash FROM api_tokens',
  "%' AND name LIKE '%_%\\",
  '$1 ? :name @p1',
];

/** Text that must round-trip exactly: emoji with joiners, right-to-left, combining marks, astral planes. */
export const unicodeSamples = [
  'Ольга 👩‍🚒🚚',
  'مرحبا بالعالم \u200f(RTL)',
  'שלום \u202eevil\u202c',
  'Zoe\u0308 Cafe\u0301 n\u0303',
  'Zoë Café',
  '𝕳𝖊𝖑𝖑𝖔 𠜎𠜱 🏳️‍🌈',
  '中文 日本語 한국어',
  'tab\tnew\nline\r\u2028sep',
];

/** The writes a body-field case applies to. */
export type Write = 'POST' | 'PUT' | 'PATCH';
export const ALL_WRITES: Write[] = ['POST', 'PUT', 'PATCH'];
/** The writes that replace the whole resource, where a missing required field is an error. */
export const WHOLE_WRITES: Write[] = ['POST', 'PUT'];

export interface FieldCase {
  path: string;
  /** A value, or a function of the test's fixtures for values that name them (see `resolve`). */
  value: unknown;
  expect: Refusal;
  /** The key of validationErrors when it is not `path` itself. */
  named?: string;
  routes?: Write[];
}

/** [dotted path, expected refusal, bad values, routes (default all three)]. */
export type FieldRow = [string, Refusal, unknown[], Write[]?];

/** One case per bad value of each row, then the nested cases. */
export function fieldCases(rows: FieldRow[], nested: FieldCase[]): FieldCase[] {
  return [...rows.flatMap(([path, expect, values, routes]) => values.map((value): FieldCase => ({ path, value, expect, routes }))), ...nested];
}

/** More digits than any integer column holds. */
export const HUGE_DIGITS = '9'.repeat(20);

/** A query string of these pairs, values encoded. */
export const qs = (...pairs: [string, string][]) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

/** The first (or, negative, last) `n` code points: cutting between a surrogate pair would make a bad string of its own. */
export const codePoints = (text: string, n: number) => (n >= 0 ? [...text].slice(0, n) : [...text].slice(n)).join('');

/** The code or codes of a refusal, for test names: `2` or `2 or 52`. */
const codeText = (expect: Refusal) => [expect.code].flat().join(' or ');

/** The state a refused request must leave as it was (see `assertRefusedUnchanged`). */
type ReadState = () => Promise<unknown>;

/**
 * `describe(title)`: each route refuses every id of `badIds` with 400 code 2, and answers
 * `notFound.code` for an unknown, a deleted (`notFound.deleted()`) and the largest id.
 */
export function describePathIdRefusals(
  title: string,
  state: ReadState,
  routes: [string, (id: string) => Promise<Response>][],
  badIds: string[],
  notFound: { code: number; deleted: () => number },
): void {
  describe(title, () => {
    for (const [method, call] of routes) {
      for (const id of badIds) {
        it(`${method} refuses ${shorten(id)} with 400 code 2`, async () => {
          await assertRefusedUnchanged(state, () => call(id), { code: 2 }, `${method} ${id}`);
        });
      }
      it(`${method} answers 404 code ${notFound.code} for an unknown, a deleted and the largest id`, async () => {
        for (const id of ['987654', String(notFound.deleted()), String(Number.MAX_SAFE_INTEGER)]) {
          await assertRefusedUnchanged(state, () => call(id), { code: notFound.code }, `${method} ${id}`);
        }
      });
    }
  });
}

/** [name, raw body text, extra headers, expected refusal]. */
export type BodyCase = [string, string, Record<string, string>, Refusal];

/** `describe('bodies as a whole')`: every write refuses each body; `request` sends raw text to the route's path. */
export function describeBodyRefusals(
  state: ReadState,
  bodies: BodyCase[],
  request: (route: Write, text: string, headers: Record<string, string>) => Promise<Response>,
): void {
  describe('bodies as a whole', () => {
    for (const route of ALL_WRITES) {
      for (const [name, text, headers, expect] of bodies) {
        it(`${route} refuses ${name} with code ${codeText(expect)}`, async () => {
          const h = { 'content-type': 'application/json', ...headers };
          await assertRefusedUnchanged(state, () => request(route, text, h), expect, `${route} ${name}`);
        });
      }
    }
  });
}

/**
 * `describe('<route> body fields')` for each write: the route's base body with one field set to a
 * bad value is refused, naming the field. A case value that is a function is passed to `resolve`
 * when the test runs (values that name fixtures made in `before`).
 */
export function describeFieldRefusals(
  state: ReadState,
  cases: FieldCase[],
  send: Record<Write, (body: unknown) => Promise<Response>>,
  baseBody: (route: Write) => Record<string, unknown>,
  resolve: (value: unknown) => unknown = (value) => value,
): void {
  for (const route of ALL_WRITES) {
    describe(`${route} body fields`, () => {
      for (const c of cases) {
        if (c.routes && !c.routes.includes(route)) continue;
        const named = c.named ?? c.path;
        const label = typeof c.value === 'function' ? `(${String(c.value).replace(/^.*=> /, '')})` : show(c.value);
        it(`refuses ${c.path} ${label} with code ${codeText(c.expect)} naming ${named}`, async () => {
          const body = withValue(baseBody(route), c.path, resolve(c.value));
          await assertRefusedUnchanged(state, () => send[route](body), { ...c.expect, field: named }, `${route} ${c.path} ${label}`);
        });
      }
    });
  }
}
