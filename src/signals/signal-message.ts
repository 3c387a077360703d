import type { EventLines, MessageReader } from '../delivery/delivery.js';
import { catalogueOf } from '../i18n/catalogue.js';
import { formatSpeed, formatZonedTime } from '../i18n/format.js';
import type { MessageBody, MessageWords, TimeOf } from './kinds/rule-kind.js';
import { ruleKindOf, SIGNAL_KINDS } from './kinds/rule-kinds.js';

const signalKindOf = new Map(SIGNAL_KINDS.map((definition) => [definition.kind, definition]));

/**
 * What an event rule's message says, by its kind (the delivery channels head it with the rule's
 * name): a change feed's lines are the feed's; a signal's are its kind's headline with the
 * employee, then its time, position and speed, then what only its kind has. Times are the
 * reader's, in the account's zone with the zone named (the body's own dates are the interface's,
 * offsets and UTC). Coordinates keep decimal points in every language: they are copied into
 * maps, which read them so.
 */
export const eventLines: EventLines = (kind, body, reader) => {
  const words = catalogueOf(reader.locale).message;
  const at: TimeOf = (date) => timeOf(date, reader);
  const definition = ruleKindOf(kind);
  if (definition?.source === 'changes') return definition.message.lines(body, words, at);
  return signalLines(body, words, reader, at);
};

function signalLines(s: MessageBody, words: MessageWords, reader: MessageReader, at: TimeOf): string[] {
  const definition = signalKindOf.get(Number(s.signalTypeID));
  const speed = typeof s.velocity === 'number' ? formatSpeed(reader.locale, s.velocity) : null;
  const headline = definition ? definition.message.headline(s, words, reader.locale, speed) : words.otherSignal(String(s.signalTypeID ?? '')).trim();
  const lines = [`${headline}, ${employee(s, words)}`];
  const time = at(s.signalDate);
  if (time) lines.push(words.time(time));
  if (typeof s.latitude === 'number' && typeof s.longitude === 'number') lines.push(words.position(s.latitude.toFixed(5), s.longitude.toFixed(5)));
  if (speed && !definition?.message.speedInHeadline) lines.push(words.speed(speed));
  lines.push(...(definition?.message.details?.(s, words, at) ?? []));
  return lines;
}

/** A date of the interface (`…+03:00` or `…Z`) as the reader's wall clock, zone named; as written when it is not one. */
function timeOf(date: unknown, reader: MessageReader): string | null {
  if (typeof date !== 'string' || !date) return null;
  const ms = Date.parse(date);
  return Number.isFinite(ms) ? formatZonedTime(reader.locale, ms, reader.timeZone) : date;
}

function employee(s: MessageBody, words: MessageWords): string {
  const id = String(s.subscriberID ?? '?');
  return typeof s.subscriberExternalID === 'string' && s.subscriberExternalID ? words.employeeWithExternal(id, s.subscriberExternalID) : words.employee(id);
}
