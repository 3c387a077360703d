import type { Account } from '../accounts/accounts.js';
import { catalogueOf } from '../i18n/catalogue.js';
import { formatCount, formatDay, formatZonedTime, zoneName } from '../i18n/format.js';
import type { ReportKind } from './kinds/report-kinds.js';
import { nextOccurrence, type ScheduleTiming } from './schedule-clock.js';

/** What one sending of a schedule reports: its days (`YYYY-MM-DD`, the account's zone) and whom. */
export interface ReportMailOccurrence {
  name: string;
  kind: ReportKind;
  timing: ScheduleTiming;
  first: string;
  last: string;
  dueMs: number;
  subscriberIds: readonly number[];
  subscriberGroupIds: readonly number[];
}

/**
 * The subject and text of a scheduled report's e-mail, in the account's language: the report, its
 * days and the zone they are cut in, whom it covers, and when the next one comes (the zone named).
 */
export function reportMailText(account: Pick<Account, 'locale' | 'timeZone'>, occurrence: ReportMailOccurrence): { subject: string; text: string } {
  const { locale, timeZone } = account;
  const catalogue = catalogueOf(locale);
  const words = catalogue.reports;
  const title = words.titles[occurrence.kind];
  const [first, last] = [formatDay(locale, occurrence.first), formatDay(locale, occurrence.last)];
  const period = occurrence.last === occurrence.first ? first : words.period(first, last);
  const { timing } = occurrence;
  const whom =
    occurrence.subscriberIds.length === 0 && occurrence.subscriberGroupIds.length === 0
      ? [words.forAllEmployees]
      : occurrence.subscriberGroupIds.length === 0
        ? [words.forEmployees(formatCount(locale, occurrence.subscriberIds.length, words.employees))]
        : [];
  return {
    subject: words.mailSubject(occurrence.name, title, period),
    text: [
      words.mailAttached(title, occurrence.name, period, zoneName(catalogue.intlLocale, timeZone, occurrence.dueMs)),
      ...whom,
      words.mailSchedule(words.frequencies[timing.frequency], timing.time, formatZonedTime(locale, nextOccurrence(timing, timeZone, occurrence.dueMs), timeZone)),
    ].join('\n'),
  };
}

