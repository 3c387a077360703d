/**
 * Event rules (interface 6.1, CONTRACT §4) as the Events tab edits them: the rule the API answers,
 * the draft the form holds (input values as typed), and the checks made before saving. Errors are
 * keyed by the server's field names (`name`, `parameters.speedLimit`, `apiUrl`), so the form shows
 * its own and the server's messages in the same place.
 */

export const RULES = '/v6/api/eventManagement/events';

export type RuleKind = 1 | 2 | 3 | 7 | 9 | 10 | 11 | 24 | 'taskChanges' | 'employeeChanges';

export interface EventRule {
  eventID: number;
  name: string;
  kind: RuleKind;
  subscriberIDs: number[];
  parameters: Record<string, unknown>;
  validFrom: string | null;
  validTo: string | null;
  weekdays: number[];
  timeFrom: string;
  timeTo: string;
  emails: string[];
  smsPhones: string[];
  messengerUserIDs: number[];
  messenger2UserIDs: number[];
  sendToApi: boolean;
  apiUrl: string | null;
  batch: boolean;
  enabled: boolean;
}

export type RuleWrite = Omit<EventRule, 'eventID'>;

/** Messages by the server's field names. */
export type FieldErrors = Record<string, string>;

export const KINDS: { kind: RuleKind; label: string }[] = [
  { kind: 1, label: 'Speed exceeded' },
  { kind: 2, label: 'Zone entry/exit' },
  { kind: 3, label: 'Stops' },
  { kind: 7, label: 'Power off' },
  { kind: 9, label: 'Waste loading' },
  { kind: 10, label: 'Sensor control' },
  { kind: 11, label: 'Trip end' },
  { kind: 24, label: 'Estimated arrival' },
  { kind: 'taskChanges', label: 'All task changes' },
  { kind: 'employeeChanges', label: 'All employee changes' },
];

export const kindLabel = (kind: RuleKind): string => KINDS.find((k) => k.kind === kind)?.label ?? `Kind ${kind}`;

export const WEEKDAYS = [
  { day: 1, short: 'Mon' },
  { day: 2, short: 'Tue' },
  { day: 3, short: 'Wed' },
  { day: 4, short: 'Thu' },
  { day: 5, short: 'Fri' },
  { day: 6, short: 'Sat' },
  { day: 7, short: 'Sun' },
];

/** A number parameter of a kind, with the server's bounds (event-rule-schema.ts). */
export interface NumberParameter {
  key: string;
  label: string;
  hint?: string;
  required: boolean;
  integer: boolean;
  min: number;
  max: number;
  /** The minimum itself is refused (a speed limit of 0). */
  exclusiveMin?: boolean;
}

const sensor: NumberParameter = {
  key: 'sensorID',
  label: 'Sensor',
  hint: 'The sensor number the tracker reports (sensorID).',
  required: true,
  integer: true,
  min: 0,
  max: 2_147_483_647,
};

export const NUMBER_PARAMETERS: Partial<Record<string, NumberParameter[]>> = {
  '1': [
    { key: 'speedLimit', label: 'Speed limit, km/h', required: true, integer: false, min: 0, max: 1000, exclusiveMin: true },
    { key: 'minDurationSeconds', label: 'Minimum duration, s', hint: 'How long the speed must stay above the limit; empty: at once.', required: false, integer: true, min: 0, max: 86_400 },
  ],
  '3': [{ key: 'minStopMinutes', label: 'Minimum stop, minutes', required: true, integer: true, min: 1, max: 10_080 }],
  '9': [{ ...sensor, hint: `${sensor.hint} Fires when its value turns from 0 to non-zero.` }],
  '10': [
    sensor,
    { key: 'min', label: 'Minimum', required: false, integer: false, min: -1e12, max: 1e12 },
    { key: 'max', label: 'Maximum', hint: 'Fires when the value leaves this range; either bound may stay empty.', required: false, integer: false, min: -1e12, max: 1e12 },
  ],
  '24': [{ key: 'minutesBefore', label: 'Minutes before arrival', hint: 'Once per task, when the assigned employee is expected within this many minutes.', required: true, integer: true, min: 1, max: 1440 }],
};

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
  };
}

/*
 * The server's window is [timeFrom, timeTo) and an equal pair means the whole day, so a window to
 * 23:59 would leave the day's last minute out. The form's "To 23:59" is the end of the day: it is
 * saved as 00:00 (00:00-23:59 becomes the server's whole-day 00:00-00:00), and read back as 23:59.
 */
const END_OF_DAY = '23:59';

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
  };
}

/** Entries of a list typed one per line or separated by commas or semicolons. */
export const splitList = (text: string): string[] =>
  text
    .split(/[\n,;]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// The server's pattern (+ and 7 to 15 digits); spaces, dashes and brackets as people type them are dropped.
const PHONE = /^\+?\d{7,15}$/;
const normalisePhone = (phone: string) => phone.replace(/[\s\-().]/g, '');

/**
 * The rule to save, or what is wrong with the draft. The checks are the server's, made early so
 * that most mistakes show at once; the server still has the last word.
 */
export function ruleOf(draft: RuleDraft, smsEnabled: boolean): { rule: RuleWrite } | { errors: FieldErrors } {
  const errors: FieldErrors = {};
  if (draft.kind === null) errors.kind = 'Choose the kind of event.';
  const nameError = checkName(draft.name);
  if (nameError) errors.name = nameError;

  const parameters: Record<string, unknown> = {};
  for (const parameter of NUMBER_PARAMETERS[String(draft.kind)] ?? []) {
    const text = (draft.numbers[parameter.key] ?? '').trim();
    const field = `parameters.${parameter.key}`;
    if (text === '') {
      if (parameter.required) errors[field] = `Enter ${parameter.label.toLowerCase()}.`;
      else if (draft.kind === 10) parameters[parameter.key] = null;
      continue;
    }
    const value = Number(text);
    const problem = checkNumber(value, parameter);
    if (problem) errors[field] = problem;
    else parameters[parameter.key] = value;
  }
  if (draft.kind === 10 && !errors['parameters.min'] && !errors['parameters.max']) {
    const { min, max } = parameters as { min: number | null; max: number | null };
    if (min === null && max === null) errors['parameters.min'] = 'Enter a minimum, a maximum or both.';
    else if (min !== null && max !== null && min > max) errors['parameters.min'] = 'The minimum must not be above the maximum.';
  }
  if (draft.kind === 2) {
    if (draft.zoneIDs.length === 0 && draft.zoneGroupIDs.length === 0) errors['parameters.zoneIDs'] = 'Choose at least one zone or zone group.';
    if (draft.zoneIDs.length > 0) parameters.zoneIDs = draft.zoneIDs;
    if (draft.zoneGroupIDs.length > 0) parameters.zoneGroupIDs = draft.zoneGroupIDs;
    parameters.on = draft.zoneOn;
  }

  const validFrom = draft.unlimited || !draft.validFrom ? null : `${draft.validFrom}:00`;
  const validTo = draft.unlimited || !draft.validTo ? null : `${draft.validTo}:00`;
  if (!draft.unlimited && validFrom === null && validTo === null) errors.validFrom = 'Enter a start, an end or both, or check Unlimited.';
  if (validFrom !== null && validTo !== null && validFrom > validTo) errors.validFrom = 'The start must not be after the end.';

  if (draft.weekdays.length === 0) errors.weekdays = 'Check at least one weekday.';
  if (!/^\d\d:\d\d$/.test(draft.timeFrom)) errors.timeFrom = 'Enter a time, such as 08:00.';
  if (!/^\d\d:\d\d$/.test(draft.timeTo)) errors.timeTo = 'Enter a time, such as 18:00.';

  const emails = splitList(draft.emails).flatMap((entry) => entry.split(/\s+/));
  const badEmail = emails.find((email) => !EMAIL.test(email));
  if (badEmail) errors.emails = `“${badEmail}” is not an e-mail address.`;
  const smsPhones = smsEnabled ? splitList(draft.smsPhones).map(normalisePhone) : [];
  const badPhone = smsPhones.find((phone) => !PHONE.test(phone));
  if (badPhone) errors.smsPhones = `“${badPhone}” is not a phone number: 7 to 15 digits, with + in front if you like.`;
  const messengerUserIDs = userIds(draft.messengerUserIDs, 'messengerUserIDs', errors);
  const messenger2UserIDs = userIds(draft.messenger2UserIDs, 'messenger2UserIDs', errors);

  const apiUrl = draft.apiUrl.trim();
  if (draft.sendToApi) {
    if (apiUrl === '') errors.apiUrl = 'Enter the address of your system.';
    else if (!URL.canParse(apiUrl)) errors.apiUrl = 'Enter a full address, such as https://example.com/lokator.';
  }

  if (Object.keys(errors).length > 0 || draft.kind === null) return { errors };
  return {
    rule: {
      name: draft.name,
      kind: draft.kind,
      subscriberIDs: draft.subscriberIDs,
      parameters,
      validFrom,
      validTo,
      weekdays: [...draft.weekdays].sort((a, b) => a - b),
      timeFrom: draft.timeFrom,
      timeTo: draft.timeTo === END_OF_DAY ? '00:00' : draft.timeTo,
      emails,
      smsPhones,
      messengerUserIDs,
      messenger2UserIDs,
      sendToApi: draft.sendToApi,
      // Kept when the box is unchecked: checking it again brings the address back.
      apiUrl: apiUrl === '' ? null : apiUrl,
      batch: draft.batch,
      enabled: draft.enabled,
    },
  };
}

/** Interface 8: an event name must not contain the backslash. */
export function checkName(name: string): string | null {
  if (name.trim() === '') return 'Enter a name.';
  if (name.includes('\\')) return 'The name must not contain the backslash character (\\).';
  if (name.length > 200) return 'The name must be at most 200 characters.';
  return null;
}

function checkNumber(value: number, parameter: NumberParameter): string | null {
  if (!Number.isFinite(value)) return 'Enter a number.';
  if (parameter.integer && !Number.isInteger(value)) return 'Enter a whole number.';
  if (parameter.exclusiveMin ? value <= parameter.min : value < parameter.min) {
    return parameter.exclusiveMin ? `Enter a number above ${parameter.min}.` : `Enter ${parameter.min} or more.`;
  }
  if (value > parameter.max) return `Enter ${parameter.max} or less.`;
  return null;
}

function userIds(text: string, field: string, errors: FieldErrors): number[] {
  const entries = splitList(text).flatMap((entry) => entry.split(/\s+/));
  const bad = entries.find((entry) => !/^\d{1,15}$/.test(entry) || Number(entry) === 0);
  if (bad) errors[field] = `“${bad}” is not a user id: ids are positive whole numbers.`;
  return entries.map(Number);
}

/**
 * The server's validation errors by form field: `emails[2]` belongs to the E-mail field and
 * names the address it refused; `subscriberIDs[0]` to the employees.
 */
export function serverErrors(validationErrors: Record<string, string>, rule: RuleWrite): FieldErrors {
  const errors: FieldErrors = {};
  for (const [key, why] of Object.entries(validationErrors)) {
    const item = /^(\w+)\[(\d+)\]$/.exec(key);
    if (!item) {
      errors[key] = sentence(why);
      continue;
    }
    const [, field, index] = item as unknown as [string, string, string];
    const value = (rule as unknown as Record<string, unknown[] | undefined>)[field]?.[Number(index)];
    errors[field] ??= value === undefined ? sentence(why) : `“${String(value)}”: ${why}.`;
  }
  return errors;
}

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;
