import { catalogueOf, type Catalogue, type Locale } from '../i18n/catalogue.js';
import { formatNumber, formatSpeed, formatZonedTime } from '../i18n/format.js';

/**
 * The human-readable text of an e-mail, SMS or messenger message, made from what the dispatcher
 * wrote for those channels: `{eventName, kind, body}`, where `body` is one signal of 6.3 or one
 * change element of 6.4 / 6.5; in the account's language, times in its zone with the zone named
 * (the body's own dates are the interface's, offsets and UTC). Short first line (an SMS may show
 * nothing else), details after. Coordinates keep decimal points in every language: they are
 * copied into maps, which read them so.
 */

type Json = Record<string, unknown>;
type Words = Catalogue['message'];

/** Whom a message is written for: the account's language and zone. */
export interface MessageReader {
  locale: Locale;
  timeZone: string;
}

/** The account's reader, looked up when a message is sent. */
export type MessageReaderOf = (accountId: number) => Promise<MessageReader>;

export const DEFAULT_READER: MessageReader = { locale: 'en', timeZone: 'UTC' };

export interface MessageText {
  subject: string;
  text: string;
}

export function messageText(payloadJson: string, reader: MessageReader = DEFAULT_READER): MessageText {
  const words = catalogueOf(reader.locale).message;
  let payload: unknown;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    return { subject: words.fallbackEvent, text: payloadJson };
  }
  // A message composed by its writer (a scheduled report) says what it says, in the language it chose.
  if (isObject(payload) && typeof payload.subject === 'string' && typeof payload.text === 'string') return { subject: payload.subject, text: payload.text };
  const { eventName, kind, body } = (isObject(payload) ? payload : {}) as { eventName?: unknown; kind?: unknown; body?: unknown };
  const name = typeof eventName === 'string' && eventName ? eventName : words.fallbackEvent;
  const element = isObject(body) ? body : {};
  const at = (date: unknown) => timeOf(date, reader);
  const lines =
    kind === 'taskChanges' ? taskLines(element, words, at) : kind === 'employeeChanges' ? employeeLines(element, words, at) : signalLines(element, words, reader, at);
  const [headline, ...details] = lines;
  const subject = words.headline(name, headline!);
  return { subject, text: [subject, ...details].join('\n') };
}

type TimeOf = (date: unknown) => string | null;

function signalLines(s: Json, words: Words, reader: MessageReader, at: TimeOf): string[] {
  const type = Number(s.signalTypeID);
  const speed = typeof s.velocity === 'number' ? formatSpeed(reader.locale, s.velocity) : null;
  const lines = [`${signalHeadline(type, s, words, reader.locale, speed)}, ${employee(s, words)}`];
  const time = at(s.signalDate);
  if (time) lines.push(words.time(time));
  if (typeof s.latitude === 'number' && typeof s.longitude === 'number') lines.push(words.position(s.latitude.toFixed(5), s.longitude.toFixed(5)));
  if (speed && type !== 1) lines.push(words.speed(speed));
  if (s.taskID !== undefined) {
    const client = [s.taskClientName, s.taskClientPhone].filter((v) => typeof v === 'string' && v).join(', ');
    lines.push(client ? words.taskWithClient(String(s.taskID), client) : words.task(String(s.taskID)));
    const arrival = at(s.estimatedArrivalDate);
    if (arrival) lines.push(words.arrivalAt(arrival));
  }
  return lines;
}

function signalHeadline(type: number, s: Json, words: Words, locale: Locale, speed: string | null): string {
  switch (type) {
    case 1:
      return speed ? words.speeding(speed) : words.speedingNoSpeed;
    case 2:
      if (s.zoneName === undefined || s.zoneName === null) return words.zoneEvent;
      return s.zoneEventType === 2 ? words.zoneLeft(String(s.zoneName)) : words.zoneEntered(String(s.zoneName));
    case 3:
      return words.stop;
    case 7:
      return words.powerOff;
    case 9:
      return words.loading;
    case 10:
      return words.sensorOutOfRange(String(s.sensorID ?? ''), typeof s.sensorValue === 'number' ? formatNumber(locale, s.sensorValue, 3) : String(s.sensorValue ?? ''));
    case 11:
      return words.tripEnded;
    case 24:
      return words.arrival;
    default:
      return words.otherSignal(String(s.signalTypeID ?? '')).trim();
  }
}

function taskLines(e: Json, words: Words, at: TimeOf): string[] {
  const meta = isObject(e.signalMetadataInfo) ? e.signalMetadataInfo : {};
  const task = isObject(e.task) ? e.task : {};
  const label = entityLabel(task.title, task.taskID ?? meta.entityID, words);
  const change = Number(meta.signalTypeID);
  const changed = isObject(e.changedValues) ? e.changedValues : {};
  const status = words.taskStatus[Number(task.status)];
  let headline: string;
  if (change === 1) headline = words.taskAdded(label);
  else if (change === 3) headline = words.taskDeleted(label);
  else if ('status' in changed && status) headline = status(label);
  else headline = words.taskChanged(label);
  return [headline, ...changedLine(changed, words), ...metaLine(meta, at, words)];
}

function employeeLines(e: Json, words: Words, at: TimeOf): string[] {
  const meta = isObject(e.signalMetadataInfo) ? e.signalMetadataInfo : {};
  const subscriber = isObject(e.subscriber) ? e.subscriber : {};
  const label = entityLabel(subscriber.name, subscriber.subscriberID ?? meta.entityID, words);
  const change = Number(meta.signalTypeID);
  const headline = change === 1 ? words.employeeAdded(label) : change === 3 ? words.employeeDeleted(label) : words.employeeChanged(label);
  return [headline, ...changedLine(isObject(e.changedValues) ? e.changedValues : {}, words), ...metaLine(meta, at, words)];
}

/** A task or employee by its title or name as entered; by its number when it has none (a deleted one). */
function entityLabel(name: unknown, id: unknown, words: Words): string {
  return typeof name === 'string' && name ? words.named(name) : words.numbered(String(id ?? ''));
}

function changedLine(changed: Json, words: Words): string[] {
  const keys = Object.keys(changed);
  if (keys.length === 0) return [];
  const names: Record<string, string> = words.fieldNames;
  return [words.changedFields(keys.map((key) => names[key] ?? key).join(', '))];
}

function metaLine(meta: Json, at: TimeOf, words: Words): string[] {
  const time = at(meta.signalDate ?? meta.date);
  return time ? [words.time(time)] : [];
}

/** A date of the interface (`…+03:00` or `…Z`) as the reader's wall clock, zone named; as written when it is not one. */
function timeOf(date: unknown, reader: MessageReader): string | null {
  if (typeof date !== 'string' || !date) return null;
  const ms = Date.parse(date);
  return Number.isFinite(ms) ? formatZonedTime(reader.locale, ms, reader.timeZone) : date;
}

function employee(s: Json, words: Words): string {
  const id = String(s.subscriberID ?? '?');
  return typeof s.subscriberExternalID === 'string' && s.subscriberExternalID ? words.employeeWithExternal(id, s.subscriberExternalID) : words.employee(id);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
