import { formatDate, formatDateTime, formatTime } from '../../i18n/format';

/**
 * A fix's time in the account's zone (not the browser's: coordinators in one office read the same
 * clock): the time with seconds for today, the date and time otherwise.
 */
export function fixTime(locationDate: string, timeZone: string): string {
  const at = new Date(locationDate);
  if (Number.isNaN(at.getTime())) return locationDate;
  return formatDate(at, timeZone) === formatDate(new Date(), timeZone) ? formatTime(at, timeZone, true) : formatDateTime(at, timeZone);
}
