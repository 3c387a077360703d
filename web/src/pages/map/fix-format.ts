import { formatDate, formatDateTime, formatTime } from '../../i18n/format';

/** Up to two initials of a name, for a marker: "Ivan Petrov" → "IP", "ООО Север" → "ОС". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0] ?? '?'];
  return letters
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toLocaleUpperCase();
}

/**
 * A fix's time in the account's zone (not the browser's: coordinators in one office read the same
 * clock): the time with seconds for today, the date and time otherwise.
 */
export function fixTime(locationDate: string, timeZone: string): string {
  const at = new Date(locationDate);
  if (Number.isNaN(at.getTime())) return locationDate;
  return formatDate(at, timeZone) === formatDate(new Date(), timeZone) ? formatTime(at, timeZone, true) : formatDateTime(at, timeZone);
}
