/**
 * The checks made before a rule is saved, and the server's refusals mapped to the form's fields.
 * Errors are keyed by the server's field names (`name`, `parameters.speedLimit`, `apiUrl`), so
 * the form shows its own and the server's messages in the same place.
 */
import type { NumberParameter } from '../../generated/kinds';
import { END_OF_DAY, kindView, type FieldErrors, type RuleDraft, type RuleWrite } from './rule-model';
import { t } from '../../i18n/i18n';

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
  if (draft.kind === null) errors.kind = t('rules.chooseKind');
  const nameError = checkName(draft.name);
  if (nameError) errors.name = nameError;

  const kind = kindView(draft.kind);
  const parameters: Record<string, unknown> = {};
  for (const parameter of kind?.numbers ?? []) {
    const text = (draft.numbers[parameter.key] ?? '').trim();
    const field = `parameters.${parameter.key}`;
    if (text === '') {
      if (parameter.required) errors[field] = t('rules.enterValue', { what: t(parameter.label).toLocaleLowerCase() });
      else if (parameter.nullable) parameters[parameter.key] = null;
      continue;
    }
    const value = Number(text);
    const problem = checkNumber(value, parameter);
    if (problem) errors[field] = problem;
    else parameters[parameter.key] = value;
  }
  if (kind?.range) {
    const [low, high] = kind.range;
    if (!errors[`parameters.${low}`] && !errors[`parameters.${high}`]) {
      const [min, max] = [parameters[low] as number | null, parameters[high] as number | null];
      if (min === null && max === null) errors[`parameters.${low}`] = t('rules.minOrMax');
      else if (min !== null && max !== null && min > max) errors[`parameters.${low}`] = t('rules.minAboveMax');
    }
  }
  if (kind?.editor === 'zones') {
    if (draft.zoneIDs.length === 0 && draft.zoneGroupIDs.length === 0) errors['parameters.zoneIDs'] = t('rules.chooseZone');
    if (draft.zoneIDs.length > 0) parameters.zoneIDs = draft.zoneIDs;
    if (draft.zoneGroupIDs.length > 0) parameters.zoneGroupIDs = draft.zoneGroupIDs;
    parameters.on = draft.zoneOn;
  }

  const validFrom = draft.unlimited || !draft.validFrom ? null : `${draft.validFrom}:00`;
  const validTo = draft.unlimited || !draft.validTo ? null : `${draft.validTo}:00`;
  if (!draft.unlimited && validFrom === null && validTo === null) errors.validFrom = t('rules.validity');
  if (validFrom !== null && validTo !== null && validFrom > validTo) errors.validFrom = t('rules.startAfterEnd');

  if (draft.weekdays.length === 0) errors.weekdays = t('rules.weekday');
  if (!/^\d\d:\d\d$/.test(draft.timeFrom)) errors.timeFrom = t('rules.timeFrom');
  if (!/^\d\d:\d\d$/.test(draft.timeTo)) errors.timeTo = t('rules.timeTo');

  const emails = splitList(draft.emails).flatMap((entry) => entry.split(/\s+/));
  const badEmail = emails.find((email) => !EMAIL.test(email));
  if (badEmail) errors.emails = t('rules.badEmail', { value: badEmail });
  const smsPhones = smsEnabled ? splitList(draft.smsPhones).map(normalisePhone) : [];
  const badPhone = smsPhones.find((phone) => !PHONE.test(phone));
  if (badPhone) errors.smsPhones = t('rules.badPhone', { value: badPhone });
  const messengerUserIDs = userIds(draft.messengerUserIDs, 'messengerUserIDs', errors);
  const messenger2UserIDs = userIds(draft.messenger2UserIDs, 'messenger2UserIDs', errors);

  const apiUrl = draft.apiUrl.trim();
  if (draft.sendToApi) {
    if (apiUrl === '') errors.apiUrl = t('rules.apiUrlEmpty');
    else if (!URL.canParse(apiUrl)) errors.apiUrl = t('rules.apiUrlBad');
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
      alertWorkspace: draft.alertWorkspace,
    },
  };
}

/** Interface 8: an event name must not contain the backslash. */
export function checkName(name: string): string | null {
  if (name.trim() === '') return t('rules.nameEmpty');
  if (name.includes('\\')) return t('rules.nameBackslash');
  if (name.length > 200) return t('rules.nameLong');
  return null;
}

function checkNumber(value: number, parameter: NumberParameter): string | null {
  if (!Number.isFinite(value)) return t('rules.number');
  if (parameter.integer && !Number.isInteger(value)) return t('rules.wholeNumber');
  if (parameter.exclusiveMin ? value <= parameter.min : value < parameter.min) {
    return parameter.exclusiveMin ? t('rules.above', { min: parameter.min }) : t('rules.atLeast', { min: parameter.min });
  }
  if (value > parameter.max) return t('rules.atMost', { max: parameter.max });
  return null;
}

function userIds(text: string, field: string, errors: FieldErrors): number[] {
  const entries = splitList(text).flatMap((entry) => entry.split(/\s+/));
  const bad = entries.find((entry) => !/^\d{1,15}$/.test(entry) || Number(entry) === 0);
  if (bad) errors[field] = t('rules.badUserId', { value: bad });
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
