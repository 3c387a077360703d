import { locale, t } from './i18n.js';

/**
 * Numbers, times and durations as the current language writes them, with Intl. Times are always
 * in the account's zone (coordinators in one office read the same clock), never the browser's.
 */

const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  const full = `${locale()}|${key}`;
  let format = cache.get(full);
  if (!format) cache.set(full, (format = make()));
  return format as T;
}

const dateTimeFormat = (timeZone: string, options: Intl.DateTimeFormatOptions) =>
  cached(`dt|${timeZone}|${JSON.stringify(options)}`, () => new Intl.DateTimeFormat(locale(), { timeZone, ...options }));
const numberFormat = (options: Intl.NumberFormatOptions) => cached(`n|${JSON.stringify(options)}`, () => new Intl.NumberFormat(locale(), options));

const instant = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));

/** A number with at most `digits` decimals (and at least `minDigits`). */
export function formatNumber(value: number, digits = 0, minDigits = 0): string {
  return numberFormat({ maximumFractionDigits: digits, minimumFractionDigits: minDigits }).format(value);
}

/** 20 May 2026, 14:30 (20 мая 2026 г., 14:30); with seconds where they matter (a delivery's attempts). */
export function formatDateTime(value: string | number | Date, timeZone: string, seconds = false): string {
  return dateTimeFormat(timeZone, { dateStyle: 'medium', timeStyle: seconds ? 'medium' : 'short', hourCycle: 'h23' }).format(instant(value));
}

/** The same with seconds and the zone's name: what a tooltip says. */
export function formatFullDateTime(value: string | number | Date, timeZone: string): string {
  const at = instant(value);
  return `${dateTimeFormat(timeZone, { dateStyle: 'long', timeStyle: 'medium', hourCycle: 'h23' }).format(at)} (${zoneName(timeZone, at)})`;
}

/** 20 May 2026 (20 мая 2026 г.). */
export function formatDate(value: string | number | Date, timeZone: string): string {
  return dateTimeFormat(timeZone, { dateStyle: 'medium' }).format(instant(value));
}

/** 14:30. */
export function formatTime(value: string | number | Date, timeZone: string, seconds = false): string {
  return dateTimeFormat(timeZone, { hour: '2-digit', minute: '2-digit', ...(seconds ? { second: '2-digit' } : {}), hourCycle: 'h23' }).format(instant(value));
}

/** A calendar day `YYYY-MM-DD` as the language writes it; the day names no instant, so no zone. */
export function formatDay(day: string): string {
  return dateTimeFormat('UTC', { dateStyle: 'medium' }).format(new Date(`${day}T12:00:00Z`));
}

const dayKey = (ms: number, timeZone: string) => dateTimeFormat(timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).format(ms);

/**
 * How old a position is: "just now", "5 min ago", "3 h ago" within six hours, then "today 09:10",
 * "yesterday 18:40", and the date and time before that (in the account's zone).
 */
export function formatAge(value: string | number, timeZone: string, nowMs = Date.now()): string {
  const atMs = instant(value).getTime();
  if (Number.isNaN(atMs)) return String(value);
  const seconds = Math.max(0, (nowMs - atMs) / 1000);
  if (seconds < 60) return t('age.justNow');
  if (seconds < 3600) return t('age.minutes', { count: Math.floor(seconds / 60) });
  if (seconds < 6 * 3600) return t('age.hours', { count: Math.floor(seconds / 3600) });
  const time = formatTime(atMs, timeZone);
  if (dayKey(atMs, timeZone) === dayKey(nowMs, timeZone)) return t('age.today', { time });
  if (dayKey(atMs, timeZone) === dayKey(nowMs - 86_400_000, timeZone)) return t('age.yesterday', { time });
  return formatDateTime(atMs, timeZone);
}

let relative: { locale: string; format: Intl.RelativeTimeFormat } | null = null;

/**
 * How long ago, as Intl says it in the language: "just now" under a minute, then "5 min ago"
 * («5 мин. назад»), "3 hr ago", "2 days ago". For what updates as it ages (an employee's last
 * data); `formatAge` gives the clock time once it is hours old.
 */
export function formatTimeAgo(value: string | number, nowMs = Date.now()): string {
  const atMs = instant(value).getTime();
  if (Number.isNaN(atMs)) return String(value);
  const seconds = Math.max(0, (nowMs - atMs) / 1000);
  if (seconds < 60) return t('age.justNow');
  if (relative?.locale !== locale()) relative = { locale: locale(), format: new Intl.RelativeTimeFormat(locale(), { numeric: 'always', style: 'short' }) };
  if (seconds < 3600) return relative.format.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return relative.format.format(-Math.floor(seconds / 3600), 'hour');
  return relative.format.format(-Math.floor(seconds / 86_400), 'day');
}

/** A speed rounded to whole km/h: "101 km/h" («101 км/ч»). */
export function formatSpeed(kmh: number): string {
  return numberFormat({ style: 'unit', unit: 'kilometer-per-hour', maximumFractionDigits: 0 }).format(kmh);
}

/** A distance to 0.1 km: "12.3 km" («12,3 км»). */
export function formatDistance(metres: number): string {
  return formatKm(metres / 1000);
}

/** A scale bar's round length: "500 m" («500 м») below a kilometre, whole kilometres from one. */
export function formatScaleLength(metres: number): string {
  return metres < 1000
    ? numberFormat({ style: 'unit', unit: 'meter', maximumFractionDigits: 0 }).format(metres)
    : numberFormat({ style: 'unit', unit: 'kilometer', maximumFractionDigits: 0 }).format(metres / 1000);
}

export function formatKm(km: number): string {
  return numberFormat({ style: 'unit', unit: 'kilometer', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(km);
}

/** Litres to 0.1: "48.8 l" («48,8 л»). */
export function formatLitres(litres: number): string {
  return numberFormat({ style: 'unit', unit: 'liter', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(litres);
}

const unit = (value: number, name: 'second' | 'minute' | 'hour' | 'day') => numberFormat({ style: 'unit', unit: name, unitDisplay: 'short' }).format(value);

/** A duration as people read it: "45 sec", "12 min", "1 hr 5 min" («1 ч 5 мин»). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return unit(s, 'second');
  const minutes = Math.round(s / 60);
  if (minutes < 60) return unit(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? unit(hours, 'hour') : `${unit(hours, 'hour')} ${unit(minutes % 60, 'minute')}`;
}

/** The zone's name in the language: "Moscow Standard Time", «Москва, стандартное время». */
export function zoneName(timeZone: string, at: Date = new Date()): string {
  const parts = dateTimeFormat(timeZone, { timeZoneName: 'long' }).formatToParts(at);
  return parts.find((p) => p.type === 'timeZoneName')?.value ?? timeZone;
}

/** The zone's offset from UTC now: "UTC+3", "UTC+5:30", "UTC". */
export function zoneOffset(timeZone: string, at: Date = new Date()): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'shortOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  return name.replace(/^GMT/, 'UTC');
}
