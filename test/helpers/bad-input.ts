import assert from 'node:assert/strict';
import type { Client, Response } from './server.js';

/**
 * Shared pieces of the bad-input tests: the error envelope of CONTRACT §1 checked field by
 * field, and "nothing changed" checked by reading state back through the API.
 */

/** The codes these tests expect, with the status and description CONTRACT §1 gives each. */
export const errorCodes: Record<number, { status: number; description: string }> = {
  2: { status: 400, description: 'BAD_REQUEST' },
  4: { status: 409, description: 'SUBSCRIBER_EXTERNAL_ID_EXISTS' },
  12: { status: 404, description: 'NO_SUCH_SUBSCRIBER' },
  18: { status: 404, description: 'TASK_NOT_FOUND' },
  22: { status: 400, description: 'TITLE_IS_NEEDED' },
  52: { status: 400, description: 'NULL_ARGUMENT' },
  67: { status: 400, description: 'INVALID_NUMBER_OF_ELEMENTS' },
  225: { status: 400, description: 'REQUEST_DATE_TIME_INCONSISTENT_FORMAT' },
  1001: { status: 404, description: 'LOCATION_NOT_FOUND' },
  1008: { status: 409, description: 'CONFLICT' },
  1010: { status: 413, description: 'PAYLOAD_TOO_LARGE' },
  1011: { status: 415, description: 'UNSUPPORTED_MEDIA_TYPE' },
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
