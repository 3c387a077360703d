import { offsetMinutes } from '../http/datetime.js';
import type { StoredRule } from './event-rule-schema.js';

/** What of a rule decides when it may fire (interface 6.1: validity, weekdays, daily window). */
export type RuleSchedule = Pick<StoredRule, 'validFromMs' | 'validToMs' | 'weekdays' | 'timeFrom' | 'timeTo'>;

/**
 * Validity period (both ends inclusive), ISO weekday (1 Monday … 7 Sunday) and daily window, in the
 * account's zone (CONTRACT §4). The window starts at `timeFrom` and ends before `timeTo`; equal
 * times are the whole day; a window that passes midnight (22:00-06:00) belongs to the weekday it
 * starts on, so its early-morning part is checked against the day before.
 */
export function inSchedule(rule: RuleSchedule, atMs: number, timeZone: string): boolean {
  if (rule.validFromMs !== null && atMs < rule.validFromMs) return false;
  if (rule.validToMs !== null && atMs > rule.validToMs) return false;
  const local = new Date(atMs + offsetMinutes(timeZone, atMs) * 60_000);
  const weekday = local.getUTCDay() === 0 ? 7 : local.getUTCDay();
  const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
  const from = minutesOf(rule.timeFrom);
  const to = minutesOf(rule.timeTo);
  if (from === to) return rule.weekdays.includes(weekday);
  if (from < to) return rule.weekdays.includes(weekday) && minute >= from && minute < to;
  if (minute >= from) return rule.weekdays.includes(weekday);
  if (minute < to) return rule.weekdays.includes(weekday === 1 ? 7 : weekday - 1);
  return false;
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
