import type { Location } from '../../types';

/** Up to two initials of a name, for a marker: "Ivan Petrov" → "IP", "ООО Север" → "ОС". */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : [words[0] ?? '?'];
  return letters
    .map((word) => Array.from(word ?? '')[0] ?? '')
    .join('')
    .toLocaleUpperCase();
}

export function formatSpeed(location: Pick<Location, 'velocity'>): string {
  return `${Math.round(location.velocity)} km/h`;
}

/**
 * A fix's time in the account's time zone (not the browser's: coordinators in one office read
 * the same clock): the time alone for today, with the date otherwise.
 */
export function fixTimeFormatter(timeZone: string): (locationDate: string) => string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const time = new Intl.DateTimeFormat(undefined, { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const dated = new Intl.DateTimeFormat(undefined, { timeZone, dateStyle: 'medium', timeStyle: 'short' });
  return (locationDate) => {
    const at = new Date(locationDate);
    if (Number.isNaN(at.getTime())) return locationDate;
    return day.format(at) === day.format(new Date()) ? time.format(at) : dated.format(at);
  };
}
