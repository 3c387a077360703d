import { parseDateTime } from '../http/datetime.js';

/** Custom-field types of interface 2.8, matched case-insensitively (samples write `String`, `Date`). */
export const customFieldTypes = ['string', 'text', 'date', 'time', 'integer', 'double', 'boolean', 'select', 'picture', 'file'] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

export function knownType(type: string): CustomFieldType | null {
  const lower = type.toLowerCase();
  return (customFieldTypes as readonly string[]).includes(lower) ? (lower as CustomFieldType) : null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;
const INTEGER = /^-?\d{1,15}$/;
// No backtracking to fear: each part is told apart by the character before it. Too large a value is refused as not finite.
const DOUBLE = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/**
 * Why `value` does not fit a field of `type`, or null when it does. Values travel as text
 * (interface 2.8 `value: string`); an empty or absent value is no value and always fits.
 * `choices` are the template's options of a select field, when it has any.
 */
export function valueProblem(type: CustomFieldType, value: string | null | undefined, choices: readonly string[] = []): string | null {
  if (value === null || value === undefined || value === '') return null;
  switch (type) {
    case 'date': {
      const m = DATE.exec(value);
      if (m) return realDate(Number(m[1]), Number(m[2]), Number(m[3])) ? null : 'must be a real calendar date';
      // A date-time is a date too: some clients send the midnight of the day.
      return parseDateTime(value, 'UTC') ? null : 'must be a date YYYY-MM-DD';
    }
    case 'time':
      return TIME.test(value) ? null : 'must be a time HH:mm or HH:mm:ss';
    case 'integer':
      return INTEGER.test(value) ? null : 'must be an integer';
    case 'double':
      return DOUBLE.test(value) && Number.isFinite(Number(value)) ? null : 'must be a decimal number';
    case 'boolean':
      return /^(true|false)$/i.test(value) ? null : 'must be true or false';
    case 'select':
      return choices.length === 0 || choices.includes(value) ? null : `must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`;
    default:
      // string, text, picture, file: any text (a picture or file is a reference the phone uploaded elsewhere).
      return null;
  }
}

function realDate(year: number, month: number, day: number): boolean {
  // setUTCFullYear, not Date.UTC: that one reads the years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
