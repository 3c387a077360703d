import { catalogueOf, type Locale } from '../i18n/catalogue.js';

/**
 * The human-readable text of an e-mail, SMS or messenger message, made from what the dispatcher
 * wrote for those channels: `{eventName, kind, body}`, where `body` is one signal of 6.3 or one
 * change element of 6.4 / 6.5; in the account's language. What a kind's message says is the
 * kind's (`EventLines`, given by the signals module); here the rule's name heads its first line
 * (an SMS may show nothing else) and the rest follow.
 */

type Json = Record<string, unknown>;

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

/** A delivery's text, as its account reads it: what the channels that carry text send. */
export type MessageTextOf = (accountId: number, payloadJson: string) => Promise<MessageText>;

/** Texts in English and UTC, without the kinds' own lines. */
export const plainTextOf: MessageTextOf = async (_accountId, payloadJson) => messageText(payloadJson);

/**
 * The lines of one event's message in the reader's language, headline first: what its rule's
 * `kind` says of `body`.
 */
export type EventLines = (kind: unknown, body: Json, reader: MessageReader) => string[];

/** Without the kinds' own lines: a signal by its type number, a change by nothing more. */
export const plainEventLines: EventLines = (_kind, body, reader) => [catalogueOf(reader.locale).message.otherSignal(String(body.signalTypeID ?? '')).trim()];

export function messageText(payloadJson: string, reader: MessageReader = DEFAULT_READER, eventLines: EventLines = plainEventLines): MessageText {
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
  const [headline, ...details] = eventLines(kind, isObject(body) ? body : {}, reader);
  const subject = words.headline(name, headline ?? '');
  return { subject, text: [subject, ...details].join('\n') };
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
