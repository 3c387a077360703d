// The server's catalogues: Russian has every key and form English has (the type says so; this
// checks the values too), every report column has its headers, and numbers,
// plurals and zoned times come out as a reader of each language writes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalogueOf, type Catalogue, type Locale } from '../../src/i18n/catalogue.js';
import { en } from '../../src/i18n/en.js';
import { formatCount, formatDay, formatKilometres, formatNumber, formatSpeed, formatZonedTime, pluralForm } from '../../src/i18n/format.js';
import { ru } from '../../src/i18n/ru.js';
import { plural } from '../../src/i18n/shape.js';
import { REPORT_KINDS } from '../../src/reports/kinds/report-kinds.js';

const locales: Locale[] = ['en', 'ru'];

/** Every path of a catalogue, with what sits there: a text, a function (and its arity), a list (and its length) or plural forms. */
function paths(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return [`${prefix}: text`];
  if (typeof value === 'function') return [`${prefix}: function/${value.length}`];
  if (Array.isArray(value)) return [`${prefix}: list/${value.length}`, ...value.flatMap((v, i) => paths(v, `${prefix}[${i}]`))];
  const object = value as Record<string, unknown>;
  if (typeof object.other === 'string') return [`${prefix}: plural`];
  return Object.keys(object).sort().flatMap((key) => paths(object[key], prefix ? `${prefix}.${key}` : key));
}

describe('server catalogues', () => {
  it('Russian has the shape of English: the same keys, functions of the same arity, lists as long', () => {
    assert.deepEqual(paths(ru), paths(en));
  });

  it('a catalogue missing a key, or with one English lacks, does not typecheck', () => {
    const { message: _message, ...withoutMessages } = ru;
    // @ts-expect-error: `message` is missing
    const missing: Catalogue = withoutMessages;
    // @ts-expect-error: `greeting` is not a key of the English catalogue
    const extra: Catalogue = { ...ru, greeting: 'Здравствуйте' };
    // @ts-expect-error: a report with headers missing
    const short: Catalogue['reports']['columns']['fuel'] = { date: 'Дата' };
    assert.ok(missing && extra && short);
  });

  it('no text is empty, and no Russian text is left in English', () => {
    const texts = (value: unknown): string[] =>
      typeof value === 'string' ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(texts) : [];
    for (const text of [...texts(en), ...texts(ru)]) assert.notEqual(text.trim(), '');
    // Units and names that are the same in both languages aside, a Russian text is in Cyrillic.
    const latinOnly = texts(ru.message).concat(texts(ru.reports)).filter((t) => /^[^А-Яа-яЁё]*$/.test(t) && !/^(ID|l\/100 km)$/.test(t));
    assert.deepEqual(latinOnly, []);
  });

  it('each report’s columns have a header in each language, and no header names a column the report lacks', () => {
    for (const { name, columns } of REPORT_KINDS) {
      const fields = columns.map((c) => c.field).sort();
      for (const catalogue of [en, ru]) {
        assert.deepEqual(Object.keys(catalogue.reports.columns[name]).sort(), fields, name);
        assert.ok(catalogue.reports.titles[name].length <= 31, 'an Excel sheet name has at most 31 characters');
      }
    }
  });

  it('plural forms cover every category Intl knows for the language', () => {
    for (const locale of locales) {
      const categories = new Intl.PluralRules(catalogueOf(locale).intlLocale).resolvedOptions().pluralCategories;
      const forms = catalogueOf(locale).reports.employees;
      for (const category of categories) assert.ok(forms[category], `${locale}: ${category}`);
    }
  });
});

/** Russian's rule, written out: 1, 21, 101 take `one`; 2-4, 22-24 `few`; the rest (and 11-14) `many`. */
function russianCategory(n: number): 'one' | 'few' | 'many' {
  const [last, lastTwo] = [n % 10, n % 100];
  if (last === 1 && lastTwo !== 11) return 'one';
  if (last >= 2 && last <= 4 && (lastTwo < 12 || lastTwo > 14)) return 'few';
  return 'many';
}

describe('numbers, plurals and times', () => {
  it('counts take the form their number asks for (Russian against the rule written out)', () => {
    const fillings = plural({ one: 'заправка', few: 'заправки', many: 'заправок', other: 'заправки' });
    for (let n = 0; n <= 1000; n++) assert.equal(pluralForm('ru', n, fillings), fillings[russianCategory(n)], String(n));
    assert.equal(formatCount('ru', 3, fillings), '3 заправки');
    assert.equal(formatCount('ru', 11, fillings), '11 заправок');
    assert.equal(formatCount('ru', 21, fillings), '21 заправка');
    assert.equal(formatCount('en', 1, en.reports.employees), '1 employee');
    assert.equal(formatCount('en', 2, en.reports.employees), '2 employees');
  });

  it('numbers, speeds and distances as each language writes them', () => {
    assert.equal(formatKilometres('ru', 12.54), '12,5 км');
    assert.equal(formatKilometres('en', 12.54), '12.5 km');
    assert.equal(formatSpeed('ru', 112.4), '112 км/ч');
    assert.equal(formatSpeed('en', 111.6), '112 km/h');
    assert.equal(formatNumber('ru', 1234.5), '1\u00a0234,5');
    assert.equal(formatNumber('en', 1234.5), '1,234.5');
  });

  it('times in the account’s zone, the zone named; days as the reader writes them', () => {
    const at = Date.parse('2026-11-28T06:39:00Z');
    assert.equal(formatZonedTime('ru', at, 'Europe/Moscow'), '28.11.2026, 09:39 (Москва)');
    assert.equal(formatZonedTime('en', at, 'Europe/Moscow'), '28/11/2026, 09:39 (Moscow Time)');
    assert.equal(formatZonedTime('en', at, 'UTC'), '28/11/2026, 06:39 (UTC)');
    assert.equal(formatZonedTime('ru', Date.parse('2026-11-28T21:30:00Z'), 'Europe/Moscow'), '29.11.2026, 00:30 (Москва)', 'the zone’s date, not UTC’s');
    assert.equal(formatDay('ru', '2026-05-18'), '18.05.2026');
    assert.equal(formatDay('en', '2026-05-18'), '2026-05-18');
  });
});
