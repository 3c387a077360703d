// What the workspace's words and numbers read like in each language: plural forms by
// Intl.PluralRules, positions' ages in the account's zone, speeds in whole km/h, distances to 0.1 km.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { formatAge, formatDistance, formatDuration, formatScaleLength, formatSpeed, formatTimeAgo } from '../../web/src/i18n/format.js';
import { setLanguage, t, type Language } from '../../web/src/i18n/i18n.js';

/** Intl separates a number from its unit with a no-break space; tests read plain spaces. */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');
const inLanguage = <T>(language: Language, run: () => T): T => {
  setLanguage(language);
  return run();
};

const NOW = Date.parse('2026-05-20T12:00:00Z'); // 15:00 in Moscow
const MINUTE = 60_000;

describe('workspace words and numbers', () => {
  it('chooses Russian plural forms as Intl.PluralRules does, and English ones', () => {
    const ru = inLanguage('ru', () => [1, 2, 5, 11, 21, 22, 25, 101].map((count) => t('map.count', { count })));
    assert.deepEqual(ru, ['1 сотрудник', '2 сотрудника', '5 сотрудников', '11 сотрудников', '21 сотрудник', '22 сотрудника', '25 сотрудников', '101 сотрудник']);
    const en = inLanguage('en', () => [1, 2, 21].map((count) => t('map.count', { count })));
    assert.deepEqual(en, ['1 employee', '2 employees', '21 employees']);
  });

  it('says how old a position is, by the clock of the account’s zone', () => {
    const ages = (timeZone: string) =>
      [NOW - 30_000, NOW - 5 * MINUTE, NOW - 3 * 60 * MINUTE, Date.parse('2026-05-20T05:10:00Z'), Date.parse('2026-05-19T15:40:00Z'), Date.parse('2026-05-19T22:30:00Z')].map((at) =>
        formatAge(at, timeZone, NOW),
      );
    assert.deepEqual(inLanguage('ru', () => ages('Europe/Moscow')), ['только что', '5 мин назад', '3 ч назад', 'сегодня 08:10', 'вчера 18:40', 'сегодня 01:30']);
    assert.deepEqual(inLanguage('en', () => ages('Europe/Moscow')), ['just now', '5 min ago', '3 h ago', 'today 08:10', 'yesterday 18:40', 'today 01:30']);
    // The same instant is yesterday in UTC: the day is the account's, not the browser's.
    assert.equal(inLanguage('en', () => formatAge(Date.parse('2026-05-19T22:30:00Z'), 'UTC', NOW)), 'yesterday 22:30');
  });

  it('within six hours, the age is whole minutes, then whole hours, never in the future', () => {
    setLanguage('ru');
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 * 3_600_000 - 1 }), (ageMs) => {
        const text = formatAge(NOW - ageMs, 'Europe/Moscow', NOW);
        if (ageMs < MINUTE) return text === 'только что';
        if (ageMs < 60 * MINUTE) return text === `${Math.floor(ageMs / MINUTE)} мин назад`;
        return text === `${Math.floor(ageMs / (60 * MINUTE))} ч назад`;
      }),
    );
    assert.equal(formatAge(NOW + 5 * MINUTE, 'Europe/Moscow', NOW), 'только что', 'a fix a little ahead of the clock is not "in 5 min"');
  });

  it('rounds speeds to whole km/h and distances to 0.1 km, in each language’s units', () => {
    assert.deepEqual(
      inLanguage('ru', () => [formatSpeed(101.1192), formatDistance(12_345), formatDuration(3 * 3600 + 5 * 60)].map(plain)),
      ['101 км/ч', '12,3 км', '3 ч 5 мин'],
    );
    assert.deepEqual(inLanguage('en', () => [formatSpeed(101.5), formatDistance(940), formatDuration(45)].map(plain)), ['102 km/h', '0.9 km', '45 secs']);
  });

  it('says how long ago as Intl does in each language, and a scale bar’s length in its units', () => {
    const agos = [NOW - 30_000, NOW - 5 * MINUTE, NOW - 3 * 60 * MINUTE, NOW - 50 * 60 * MINUTE, NOW + MINUTE];
    const russian = inLanguage('ru', () => agos.map((at) => formatTimeAgo(at, NOW)).map(plain));
    const english = inLanguage('en', () => agos.map((at) => formatTimeAgo(at, NOW)).map(plain));
    const rtf = (locale: string) => new Intl.RelativeTimeFormat(locale, { numeric: 'always', style: 'short' });
    assert.deepEqual(russian, ['только что', rtf('ru-RU').format(-5, 'minute'), rtf('ru-RU').format(-3, 'hour'), rtf('ru-RU').format(-2, 'day'), 'только что'].map(plain));
    assert.deepEqual(english, ['just now', '5 min ago', '3 hr ago', '2 days ago', 'just now']);
    assert.match(russian[1]!, /^5 мин\.? назад$/);
    assert.deepEqual(inLanguage('ru', () => [formatScaleLength(500), formatScaleLength(2000)].map(plain)), ['500 м', '2 км']);
    assert.deepEqual(inLanguage('en', () => [formatScaleLength(50), formatScaleLength(10_000)].map(plain)), ['50 m', '10 km']);
  });
});
