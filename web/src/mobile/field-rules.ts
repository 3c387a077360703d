import type { PlainKey } from '../i18n/i18n';
import type { FormField } from './device-api';

/**
 * The server's checks of a custom field's value (src/customfields/custom-field-values.ts), made
 * on the phone so the employee learns of a mistake before the form is queued. Values travel as
 * text; an empty value is no value and only a required field refuses it.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const INTEGER = /^-?\d{1,15}$/;
const DOUBLE = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** The field types the app draws, by interface 2.8's names in any case; unknown ones are text. */
export type FieldKind = 'string' | 'text' | 'date' | 'time' | 'integer' | 'double' | 'boolean' | 'select' | 'picture' | 'file';
const KINDS: readonly FieldKind[] = ['string', 'text', 'date', 'time', 'integer', 'double', 'boolean', 'select', 'picture', 'file'];

export function fieldKind(field: Pick<FormField, 'type'>): FieldKind {
  const lower = field.type.toLowerCase() as FieldKind;
  return KINDS.includes(lower) ? lower : 'string';
}

function realDate(year: number, month: number, day: number): boolean {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** What is wrong with `value` for `field`, as a catalogue key, or null when it fits. */
export function fieldProblem(field: FormField, value: string | null, hasFile = false): PlainKey | null {
  const kind = fieldKind(field);
  const empty = (value === null || value === '') && !hasFile;
  if (empty) return field.isRequired ? 'mobile.fieldRequired' : null;
  if (value === null || value === '') return null;
  switch (kind) {
    case 'date': {
      const m = DATE.exec(value);
      return m && realDate(Number(m[1]), Number(m[2]), Number(m[3])) ? null : 'mobile.fieldDate';
    }
    case 'time':
      return TIME.test(value) ? null : 'mobile.fieldTime';
    case 'integer':
      return INTEGER.test(value) ? null : 'mobile.fieldInteger';
    case 'double':
      return DOUBLE.test(value) && Number.isFinite(Number(value)) ? null : 'mobile.fieldNumber';
    case 'boolean':
      return /^(true|false)$/i.test(value) ? null : 'mobile.fieldBoolean';
    case 'select':
      return !field.values?.length || field.values.includes(value) ? null : 'mobile.fieldChoice';
    default:
      return null;
  }
}
