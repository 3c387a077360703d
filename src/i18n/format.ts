import { catalogueOf, type Locale } from './catalogue.js';
import type { Plural } from './shape.js';

/**
 * Numbers, counted words and times as a reader of the language writes them, all through `Intl`:
 * «12,5 км», «112 км/ч», «3 заправки», «20.05.2026, 14:30 (Москва)». Formatters are made once per
 * language and zone: making one costs far more than using it.
 */
const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>();

function cached<T extends Intl.NumberFormat | Intl.DateTimeFormat | Intl.PluralRules>(key: string, make: () => T): T {
  let made = cache.get(key) as T | undefined;
  if (!made) {
    made = make();
    cache.set(key, made);
  }
  return made;
}

/** A number with at most `digits` decimals, grouped and with the language's decimal mark. */
export function formatNumber(locale: Locale, value: number, digits = 1): string {
  const tag = catalogueOf(locale).intlLocale;
  return cached(`n:${tag}:${digits}`, () => new Intl.NumberFormat(tag, { maximumFractionDigits: digits })).format(value);
}

/** A speed, rounded to whole km/h: «112 км/ч», `112 km/h`. */
export function formatSpeed(locale: Locale, kmh: number): string {
  const tag = catalogueOf(locale).intlLocale;
  return cached(`kmh:${tag}`, () => new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilometer-per-hour', maximumFractionDigits: 0 })).format(kmh);
}

/** A distance to 0.1 km: «12,5 км», `12.5 km`. */
export function formatKilometres(locale: Locale, km: number): string {
  const tag = catalogueOf(locale).intlLocale;
  return cached(`km:${tag}`, () => new Intl.NumberFormat(tag, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 1 })).format(km);
}

/** The form of a counted word that goes with `count` in the language: 1 заправка, 3 заправки, 5 заправок. */
export function pluralForm(locale: Locale, count: number, forms: Plural): string {
  const tag = catalogueOf(locale).intlLocale;
  const category = cached(`p:${tag}`, () => new Intl.PluralRules(tag)).select(count);
  return forms[category] ?? forms.other;
}

/** `count` and its counted word: «3 заправки», `1 filling`. */
export function formatCount(locale: Locale, count: number, forms: Plural): string {
  return `${formatNumber(locale, count, 0)} ${pluralForm(locale, count, forms)}`;
}

/**
 * An instant as the wall-clock time of `timeZone`, with the zone named as the language names it:
 * «20.05.2026, 14:30 (Москва)», `20/05/2026, 14:30 (Moscow Time)`; UTC as `UTC`.
 */
export function formatZonedTime(locale: Locale, epochMs: number, timeZone: string): string {
  const catalogue = catalogueOf(locale);
  const tag = catalogue.intlLocale;
  const time = cached(`t:${tag}:${timeZone}`, () =>
    new Intl.DateTimeFormat(tag, { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  ).format(epochMs);
  return catalogue.zoned(time, zoneName(tag, timeZone, epochMs));
}

/** The zone as the language names it (Москва, Moscow Time); an offset (`GMT+3`) where it has no name. */
export function zoneName(tag: string, timeZone: string, epochMs: number): string {
  if (timeZone === 'UTC' || timeZone === 'Etc/UTC') return 'UTC';
  const parts = cached(`z:${tag}:${timeZone}`, () => new Intl.DateTimeFormat(tag, { timeZone, timeZoneName: 'shortGeneric' })).formatToParts(epochMs);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/** A day of the calendar (`YYYY-MM-DD`) as the language writes it: «20.05.2026»; English keeps the ISO form, which no reader misorders. */
export function formatDay(locale: Locale, day: string): string {
  if (locale === 'en') return day;
  const tag = catalogueOf(locale).intlLocale;
  return cached(`d:${tag}`, () => new Intl.DateTimeFormat(tag, { timeZone: 'UTC', year: 'numeric', month: '2-digit', day: '2-digit' })).format(Date.parse(`${day}T00:00:00Z`));
}
