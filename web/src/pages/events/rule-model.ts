/**
 * Event rules (interface 6.1, CONTRACT §4) as the Events tab edits them: the rule the API answers
 * (typed from the server's schema), the kinds (the server's list, generated/kinds.ts), and the
 * draft the form holds (input values as typed). The checks made before saving are in rule-checks.ts.
 */

import type { Static } from 'typebox';
// The server's own schema, as types only: `import type` is erased, so nothing of the server is bundled.
import type { EventRule as EventRuleSchema, EventRuleFields } from '../../../../src/signals/event-rule-fields';
import { RULE_KINDS, type RuleKind, type RuleKindView } from '../../generated/kinds';
import { locale, t } from '../../i18n/i18n';

export const RULES = '/v6/api/eventManagement/events';

/** A rule as the API answers it. Its schema types `kind` loosely (integer or string); the write schema lets in only the kinds listed. */
export type EventRule = Static<typeof EventRuleSchema> & { kind: RuleKind };

/** What POST and PUT send: every field, since a PUT resets what it omits. */
export type RuleWrite = Required<EventRuleFields> & { kind: RuleKind };

/** Messages by the server's field names. */
export type FieldErrors = Record<string, string>;

/** A kind as the form shows it; undefined for a kind this server does not know. */
export const kindView = (kind: RuleKind | null): RuleKindView | undefined => RULE_KINDS.find((k) => k.kind === kind);

export const kindLabel = (kind: RuleKind): string => {
  const known = kindView(kind);
  return known ? t(known.label) : t('rules.kindN', { kind });
};

/** ISO weekdays (1 Monday … 7 Sunday), named short as the language does (1 January 2024 was a Monday). */
export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7].map((day) => ({
  day,
  short: () => new Intl.DateTimeFormat(locale(), { weekday: 'short', timeZone: 'UTC' }).format(Date.UTC(2024, 0, day)),
}));

export type ZoneTrigger = 'entry' | 'exit' | 'both';

/** The form's state: inputs as typed, checked until saving. */
export interface RuleDraft {
  kind: RuleKind | null;
  name: string;
  subscriberIDs: number[];
  /** Number parameters by key, as typed. */
  numbers: Record<string, string>;
  zoneIDs: number[];
  zoneGroupIDs: number[];
  zoneOn: ZoneTrigger;
  unlimited: boolean;
  /** `datetime-local` values, read by the server in the account's zone. */
  validFrom: string;
  validTo: string;
  weekdays: number[];
  timeFrom: string;
  timeTo: string;
  emails: string;
  smsPhones: string;
  messengerUserIDs: string;
  messenger2UserIDs: string;
  sendToApi: boolean;
  apiUrl: string;
  /** Not on the form; kept so that saving (a PUT resets what it omits) leaves them as they were. */
  batch: boolean;
  enabled: boolean;
  /** Its signals are alerts in the workspace's bell, whatever the recipients. */
  alertWorkspace: boolean;
}

export function emptyDraft(): RuleDraft {
  return {
    kind: null,
    name: '',
    subscriberIDs: [],
    numbers: {},
    zoneIDs: [],
    zoneGroupIDs: [],
    zoneOn: 'both',
    unlimited: true,
    validFrom: '',
    validTo: '',
    weekdays: [1, 2, 3, 4, 5, 6, 7],
    timeFrom: '00:00',
    timeTo: '23:59',
    emails: '',
    smsPhones: '',
    messengerUserIDs: '',
    messenger2UserIDs: '',
    sendToApi: false,
    apiUrl: '',
    batch: false,
    enabled: true,
    alertWorkspace: true,
  };
}

/*
 * The server's window is [timeFrom, timeTo) and an equal pair means the whole day, so a window to
 * 23:59 would leave the day's last minute out. The form's "To 23:59" is the end of the day: it is
 * saved as 00:00 (00:00-23:59 becomes the server's whole-day 00:00-00:00), and read back as 23:59.
 */
export const END_OF_DAY = '23:59';

export function draftOf(rule: EventRule): RuleDraft {
  const p = rule.parameters;
  const numbers: Record<string, string> = {};
  for (const [key, value] of Object.entries(p)) if (typeof value === 'number') numbers[key] = String(value);
  const ids = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : []);
  return {
    kind: rule.kind,
    name: rule.name,
    subscriberIDs: rule.subscriberIDs,
    numbers,
    zoneIDs: ids(p.zoneIDs),
    zoneGroupIDs: ids(p.zoneGroupIDs),
    zoneOn: p.on === 'entry' || p.on === 'exit' ? p.on : 'both',
    unlimited: rule.validFrom === null && rule.validTo === null,
    // `2026-06-01T08:00:00+03:00`, already in the account's zone: its wall time is the input's value.
    validFrom: rule.validFrom?.slice(0, 16) ?? '',
    validTo: rule.validTo?.slice(0, 16) ?? '',
    weekdays: rule.weekdays,
    timeFrom: rule.timeFrom,
    timeTo: rule.timeTo === '00:00' ? END_OF_DAY : rule.timeTo,
    emails: rule.emails.join('\n'),
    smsPhones: rule.smsPhones.join('\n'),
    messengerUserIDs: rule.messengerUserIDs.join('\n'),
    messenger2UserIDs: rule.messenger2UserIDs.join('\n'),
    sendToApi: rule.sendToApi,
    apiUrl: rule.apiUrl ?? '',
    batch: rule.batch,
    enabled: rule.enabled,
    alertWorkspace: rule.alertWorkspace ?? true,
  };
}
