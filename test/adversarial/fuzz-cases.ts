import { bodyFields, kindOf, nonNull, type Parameter, type Schema } from './openapi-document.js';

/**
 * Malformed values for every parameter and body field of an operation, derived from its schema.
 * Each case says what the server must answer: `code2` (400 code 2: CONTRACT §1, a non-integer
 * where an integer is expected), `refused` (any 4xx envelope) or `no5xx` (random bytes that may
 * happen to be valid: any answer but a 5xx). Every answer, whatever the case, must be the
 * envelope when it is an error.
 */

export type Expectation = 'code2' | 'refused' | 'no5xx';

/** Where a case puts its value: a path or query parameter, a body field, or the body as a whole. */
export interface FuzzCase {
  where: 'path' | 'query' | 'body-field' | 'body';
  /** The parameter or field, `zones.0.zoneID`; `(body)` for the body as a whole. */
  name: string;
  /** Readable form of the value, for failure messages. */
  shown: string;
  expect: Expectation;
  /** Path and query: the text as it goes in the URL (already encoded where it must be). */
  urlText?: string;
  /** Query: the whole query string, for the duplicate and list forms of one parameter. */
  rawQuery?: string;
  /** Query lists: a value in the comma, repeated or bracket form (sampled; the plain form is always tried). */
  listForm?: boolean;
  /** Body field: the JSON value; `raw` holds a token JSON cannot say (NaN, 0x10) that is spliced in. */
  value?: unknown;
  raw?: string;
  /** Body as a whole: the exact text and content type. */
  bodyText?: string;
  contentType?: string | null;
}

/**
 * Texts that are not an integer in decimal digits. CONTRACT §1: 400 code 2. The list
 * (0x10, 0b10, 0o2, 2e0, +2, 2.0, ' 2', %202) first: each of them used to read object 2 or 16.
 */
export const NOT_INTEGERS: [string, string][] = [
  ['0x10', '0x10'],
  ['0b10', '0b10'],
  ['0o2', '0o2'],
  ['2e0', '2e0'],
  ['+2', '%2B2'],
  ['2.0', '2.0'],
  ["' 2'", '%202'],
  ["'2 '", '2%20'],
  ['1e20', '1e20'],
  ['NaN', 'NaN'],
  ['Infinity', 'Infinity'],
  ['-Infinity', '-Infinity'],
  ['1.5', '1.5'],
  ['abc', 'abc'],
  ['null', 'null'],
  ['true', 'true'],
  ['Arabic-Indic one', encodeURIComponent('١')],
  ['full-width two', encodeURIComponent('２')],
  ['NUL', '%00'],
  ['1 then NUL', '1%00'],
  ['lone surrogate (CESU bytes)', '%ED%A0%80'],
  ['an emoji', encodeURIComponent('🚚')],
  ['SQL', encodeURIComponent("1' OR '1'='1")],
];

/** Integers that are well formed but out of range: any 4xx (a huge id is "not found" or 400, never a 500). */
const OUT_OF_RANGE_INTEGERS: [string, string][] = [
  ['20 digits', '9'.repeat(20)],
  ['2^63', '9223372036854775808'],
  ['2^53', '9007199254740992'],
  ['200 digits', '1'.repeat(200)],
];

const EMPTY: [string, string] = ['empty', ''];
const HUGE_TEXT = 'x'.repeat(100_000);

/** Values of one path parameter. */
export function pathCases(parameter: Parameter): FuzzCase[] {
  const kind = kindOf(parameter.schema);
  const cases: FuzzCase[] = [];
  const add = (shown: string, urlText: string, expect: Expectation) => cases.push({ where: 'path', name: parameter.name, shown, urlText, expect });
  if (kind === 'integer') {
    for (const [shown, text] of NOT_INTEGERS) add(shown, text, 'code2');
    for (const [shown, text] of [...OUT_OF_RANGE_INTEGERS, ['zero', '0'], ['-1', '-1']]) add(shown!, text!, 'refused');
  } else {
    for (const [shown, text] of [['NUL', '%00'], ['lone surrogate', '%ED%A0%80'], ['5,000 characters', 'x'.repeat(5000)], ['SQL', encodeURIComponent("' OR 1=1 --")]]) {
      add(shown!, text!, 'refused');
    }
  }
  return cases;
}

/** Values of one query parameter, in its plain form and (for lists) in the comma, repeated and bracket forms. */
export function queryCases(parameter: Parameter, valid: string): FuzzCase[] {
  const { schema } = nonNull(parameter.schema);
  const isList = kindOf(schema) === 'array';
  const item = isList ? nonNull(schema.items ?? {}).schema : schema;
  const kind = kindOf(item);
  const name = parameter.name;
  const cases: FuzzCase[] = [];
  const add = (shown: string, text: string, expect: Expectation) => {
    cases.push({ where: 'query', name, shown, expect, rawQuery: `${name}=${text}` });
    if (isList) {
      const good = encodeURIComponent(valid);
      cases.push({ where: 'query', name, shown: `${shown} after a good one, comma form`, expect, listForm: true, rawQuery: `${name}=${good},${text}` });
      cases.push({ where: 'query', name, shown: `${shown} after a good one, repeated`, expect, listForm: true, rawQuery: `${name}=${good}&${name}=${text}` });
      cases.push({ where: 'query', name, shown: `${shown}, bracket form`, expect, listForm: true, rawQuery: `${name}%5B%5D=${good}&${name}%5B%5D=${text}` });
    }
  };
  if (kind === 'integer') {
    for (const [shown, text] of NOT_INTEGERS) add(shown, text, 'code2');
    for (const [shown, text] of OUT_OF_RANGE_INTEGERS) add(shown, text, 'refused');
    if (item.minimum !== undefined && item.minimum >= 0) add('-1', '-1', 'refused');
    if (item.maximum !== undefined && item.maximum < Number.MAX_SAFE_INTEGER) add(`maximum + 1 (${item.maximum + 1})`, String(item.maximum + 1), 'refused');
    add(...EMPTY, 'refused');
  } else if (kind === 'number') {
    for (const [shown, text] of [['NaN', 'NaN'], ['Infinity', 'Infinity'], ['0x10', '0x10'], ['1e999', '1e999'], ['abc', 'abc'], ['NUL', '%00'], EMPTY] as [string, string][]) add(shown, text, 'refused');
    if (item.maximum !== undefined) add(`beyond the maximum ${item.maximum}`, String(item.maximum + 1), 'refused');
  } else if (kind === 'boolean') {
    for (const [shown, text] of [['yes', 'yes'], ['2', '2'], ['NUL', '%00'], ['true then NUL', 'true%00'], EMPTY] as [string, string][]) add(shown, text, 'refused');
  } else if (kind === 'string' || kind === 'mixed') {
    add('NUL', '%00', 'refused');
    add('a lone surrogate (CESU bytes)', '%ED%A0%80', 'refused');
    if (item.maxLength !== undefined) add(`${item.maxLength + 1} characters`, 'x'.repeat(item.maxLength + 1), 'refused');
    const options = item.enum ?? (item.anyOf ?? []).map((s) => s.const).filter((c) => c !== undefined);
    if (options.length) add('not one of the allowed values', 'nonsense', 'refused');
  }
  if (!isList) {
    // One value, written twice: which one did the client mean? CONTRACT §1 lists repeat only for lists.
    cases.push({ where: 'query', name, shown: 'given twice', expect: 'refused', rawQuery: `${name}=${encodeURIComponent(valid)}&${name}=${encodeURIComponent(valid)}` });
  }
  cases.push({ where: 'query', name, shown: '100,000 characters', expect: 'refused', rawQuery: `${name}=${HUGE_TEXT}` });
  return cases;
}

/** A token spliced into the JSON text in place of the value (JSON.stringify cannot write these). */
const RAW = (token: string, shown = token) => ({ raw: token, shown });

/** Values of one body field that its schema refuses. */
export function fieldCases(path: string, fieldSchema: Schema): FuzzCase[] {
  const { schema, nullable } = nonNull(fieldSchema);
  const kind = kindOf(schema);
  const values: ({ value: unknown; shown?: string } | { raw: string; shown: string })[] = [];
  const v = (value: unknown, shown?: string) => values.push({ value, ...(shown ? { shown } : {}) });
  if (!nullable) v(null);
  switch (kind) {
    case 'integer':
    case 'number': {
      v('1', 'the string "1"');
      v(true);
      v([]);
      v({});
      values.push(RAW('NaN'), RAW('Infinity'), RAW('-Infinity'), RAW('0x10'), RAW('+2'), RAW('1e999'), RAW('.5'), RAW('01'));
      if (kind === 'integer') v(1.5);
      if (kind === 'integer') v(2 ** 53, '2^53');
      if (schema.maximum !== undefined) v(schema.maximum + 1, `maximum + 1 (${schema.maximum + 1})`);
      else v(1e308);
      if (schema.minimum !== undefined) v(schema.minimum - 1, `minimum - 1 (${schema.minimum - 1})`);
      break;
    }
    case 'string': {
      v(1);
      v(true);
      v([]);
      v({});
      v('a\u0000b', 'text with NUL');
      values.push(RAW('"a\\ud800b"', 'a lone surrogate'));
      if (schema.maxLength !== undefined && schema.maxLength < 100_000) v('y'.repeat(schema.maxLength + 1), `${schema.maxLength + 1} characters`);
      if (schema.enum) v('nonsense', 'not one of the allowed values');
      break;
    }
    case 'boolean':
      v('true', 'the string "true"');
      v(1);
      v(0);
      v('yes');
      break;
    case 'array':
      v('x');
      v(5);
      v({});
      if (schema.maxItems !== undefined && schema.maxItems <= 1000) v(Array.from({ length: schema.maxItems + 1 }, () => 1), `${schema.maxItems + 1} items`);
      if (schema.items && !nonNull(schema.items).nullable && kindOf(schema.items) !== 'mixed') v([null], '[null]');
      break;
    case 'object':
      v('x');
      v(5);
      v([]);
      break;
    default:
      return [];
  }
  return values.map((x) => ({
    where: 'body-field',
    name: path,
    expect: 'refused',
    shown: x.shown ?? JSON.stringify((x as { value: unknown }).value),
    ...('raw' in x ? { raw: x.raw } : { value: x.value }),
  }));
}

/** Every field's cases of a body schema. */
export function bodyFieldCases(body: Schema): FuzzCase[] {
  return bodyFields(body).flatMap(({ path, schema }) => fieldCases(path, schema));
}

/** The body as a whole: not JSON, not its type, too deep, too large, the wrong content type. */
export function wholeBodyCases(body: Schema, goodText: string): FuzzCase[] {
  const isArray = kindOf(body) === 'array';
  const c = (shown: string, bodyText: string, contentType: string | null = 'application/json'): FuzzCase => ({
    where: 'body',
    name: '(body)',
    shown,
    expect: 'refused',
    bodyText,
    contentType,
  });
  return [
    c('an empty body', ''),
    c('no body and no content type', '', null),
    c('truncated JSON', goodText.slice(0, Math.max(1, goodText.length - 2))),
    c('a trailing comma', goodText.replace(/[}\]]$/, ',$&')),
    c('NaN', 'NaN'),
    c('a string', '"x"'),
    c('a number', '42'),
    c('null', 'null'),
    c(isArray ? 'an object' : 'an array', isArray ? '{}' : '[]'),
    c('nesting 5,000 deep', `${'['.repeat(5000)}${']'.repeat(5000)}`),
    c('an object nested 5,000 deep', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`),
    c('the good body as text/plain', goodText, 'text/plain'),
    c('the good body as a form', goodText, 'application/x-www-form-urlencoded'),
    c('the good body as XML', goodText, 'application/xml'),
    c('a 2 MiB string (over the 1 MiB management limit)', `"${'z'.repeat(2 * 1024 * 1024)}"`),
    c('a key given twice, the second with NUL', isArray ? '[{"a":1,"a":"\\u0000"}]' : '{"a":1,"a":"\\u0000"}'),
    c('the good body with a lone surrogate in a key and value', isArray ? '[{"\\udc00":"\\ud800"}]' : '{"\\udc00":"\\ud800"}'),
  ];
}

/** `bytes` percent-encoded one by one: any byte sequence, valid UTF-8 or not, as URL text. */
export const percentEncoded = (bytes: Uint8Array) => [...bytes].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('');

/** Random bytes in a path or query parameter (generated by the caller with a seeded generator): no 5xx, the envelope when refused. */
export function randomByteCases(parameter: Parameter, samples: Uint8Array[]): FuzzCase[] {
  return samples.map((bytes) => {
    const text = percentEncoded(bytes);
    const shown = `bytes ${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ')}`;
    return parameter.in === 'path'
      ? { where: 'path', name: parameter.name, shown, expect: 'no5xx', urlText: text || '%20' }
      : { where: 'query', name: parameter.name, shown, expect: 'no5xx', rawQuery: `${encodeURIComponent(parameter.name)}=${text}` };
  });
}
