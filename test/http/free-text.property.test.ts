import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import { foldCase, matchesWords, searchWords } from '../../src/http/free-text.js';
import { dialects, freshDatabase, type TestDatabase } from '../helpers/stores.js';

/** The free-text rule: properties against oracles that are not the code under test. */

const LATIN = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const CYRILLIC = 'АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюяІіЇїЄєҐґЎў';
const GREEK = 'ΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩαβγδεζηθικλμνξοπρσςτυφχψω';
const LETTERS = [...LATIN, ...CYRILLIC, ...GREEK, ...'ÀÉÎÕÜßÇàéîõüçĞğŞşİı'];
const letter = fc.constantFrom(...LETTERS);
/** Letters a person can type in either case and get back (not ı, ß, ς, İ: their other case is another letter or two). */
const roundTrip = fc.constantFrom(...LETTERS.filter((c) => c.toUpperCase().length === 1 && c.toLowerCase().length === 1 && foldCase(c.toUpperCase()) === foldCase(c)));
const digit = fc.constantFrom(...'0123456789');
const separator = fc.constantFrom(' ', ', ', '. ', '-', ' / ', ' № ', '  ', '"', '(', ')');
const word = fc.array(fc.oneof({ arbitrary: roundTrip, weight: 4 }, { arbitrary: digit, weight: 1 }), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));
const text = fc.array(fc.tuple(word, separator), { minLength: 1, maxLength: 6 }).map((parts) => parts.map(([w, s]) => w + s).join(''));
/** Each letter of the text in upper or lower case, at random. */
const recased = (value: string, flips: boolean[]) => [...value].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c.toLowerCase())).join('');

describe('free-text search rule', () => {
  it('finds a text by any of its words, in any case, with any separators between them', () => {
    fc.assert(
      fc.property(text, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), fc.array(separator, { minLength: 1, maxLength: 3 }), (stored, flips, glue) => {
        // Words as a person types them: a part of the stored ones, re-cased, in reverse order.
        const typed = stored.split(/[ ,./№"()-]+/).filter(Boolean).reverse();
        const query = typed.map((w, i) => recased(w, flips) + glue[i % glue.length]).join('');
        assert.ok(matchesWords(stored, searchWords(query)), `${JSON.stringify(query)} in ${JSON.stringify(stored)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('does not find a text when one word of the query is missing from it', () => {
    fc.assert(
      fc.property(text, word, (stored, missing) => {
        fc.pre(!foldCase(stored).includes(foldCase(missing)));
        assert.equal(matchesWords(stored, searchWords(`${stored} ${missing}`)), false);
      }),
      { numRuns: 300 },
    );
  });

  it('splits on punctuation but keeps %, _ and \\ as letters', () => {
    assert.deepEqual(searchWords('г. Санкт-Петербург, Приморский пр., д.1/2 «Ёлка»'), ['г', 'санкт', 'петербург', 'приморский', 'пр', 'д', '1', '2', 'ёлка']);
    assert.deepEqual(searchWords('50% off_street\\x'), ['50%', 'off_street\\x']);
    assert.deepEqual(searchWords(' , . '), []);
    assert.deepEqual(searchWords('дом ДОМ Дом'), ['дом']);
  });

  it('folds composed and decomposed letters alike, and ё apart from е', () => {
    assert.equal(foldCase('Й'), foldCase('И\u0306'));
    assert.equal(foldCase('Ё'), 'ё');
    assert.notEqual(foldCase('Ё'), 'е');
    assert.equal(foldCase('İSTANBUL ΣΟΦΟΣ'), 'istanbul σοφοσ');
  });
});

for (const dialect of dialects.filter((d) => d === 'postgres')) {
  describe('foldCase matches PostgreSQL’s lower() of the test cluster', () => {
    let store: TestDatabase;
    before(async () => {
      store = await freshDatabase(dialect);
    });
    after(() => store.drop());

    it('gives the same lower case for Latin, Cyrillic and Greek texts', async () => {
      const samples = fc.sample(fc.array(fc.oneof(letter, digit, separator), { minLength: 1, maxLength: 30 }).map((c) => c.join('')), 300);
      samples.push(LETTERS.join(''));
      const { rows } = await sql<{ folded: string[] }>`SELECT array_agg(lower(t) ORDER BY n) AS folded FROM unnest(${samples}::text[]) WITH ORDINALITY AS s (t, n)`.execute(store.database.db);
      assert.deepEqual(
        samples.map(foldCase),
        rows[0]!.folded,
      );
    });
  });
}
