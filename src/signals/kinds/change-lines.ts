import type { MessageBody, MessageWords, TimeOf } from './rule-kind.js';

/** What the change feeds' messages share: the entity by name or number, the fields changed, the time. */

export const isObject = (value: unknown): value is MessageBody => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A task or employee by its title or name as entered; by its number when it has none (a deleted one). */
export function entityLabel(name: unknown, id: unknown, words: MessageWords): string {
  return typeof name === 'string' && name ? words.named(name) : words.numbered(String(id ?? ''));
}

export function changedLine(changed: MessageBody, words: MessageWords): string[] {
  const keys = Object.keys(changed);
  if (keys.length === 0) return [];
  const names: Record<string, string> = words.fieldNames;
  return [words.changedFields(keys.map((key) => names[key] ?? key).join(', '))];
}

export function metaLine(meta: MessageBody, at: TimeOf, words: MessageWords): string[] {
  const time = at(meta.signalDate ?? meta.date);
  return time ? [words.time(time)] : [];
}
