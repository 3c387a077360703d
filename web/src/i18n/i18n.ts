import type { CatalogueOf } from './catalogue.js';
import { en } from './en.js';
import { ru } from './ru.js';

/**
 * The workspace's words: one typed catalogue per language (en.ts is the source of the keys and of
 * the placeholders each message takes; ru.ts has the same shape, so a key missing there fails
 * the typecheck). Plural forms are chosen by Intl.PluralRules of the language.
 */

export type Language = 'ru' | 'en';
export const LANGUAGES: readonly Language[] = ['ru', 'en'];
const STORAGE_KEY = 'lokator.language';

type Source = typeof en;
export type MessageKey = keyof Source;

type Placeholders<S> = S extends `${string}{${infer Name}}${infer Rest}` ? Name | Placeholders<Rest> : never;
type TextOf<K extends MessageKey> = Source[K] extends { other: infer Other } ? Other : Source[K];
type Params<K extends MessageKey, V> = Record<Placeholders<TextOf<K>>, V>;
/** No second argument for a message without placeholders; every placeholder's value for one with them. */
export type Args<K extends MessageKey, V> = [Placeholders<TextOf<K>>] extends [never] ? [] : [params: Params<K, V>];

/** A key whose message takes no placeholders: what a table of labels holds. */
export type PlainKey = { [K in MessageKey]: [Placeholders<TextOf<K>>] extends [never] ? K : never }[MessageKey];

/** A catalogue of the shape of en.ts: the same keys, each a string or plural forms. */
export type Catalogue = CatalogueOf<Source>;

const catalogues: Record<Language, Catalogue> = { en, ru };

/** The browser's language: Russian for any `ru…`, else English. */
export function browserLanguage(): Language {
  const browser = (globalThis as { navigator?: { languages?: readonly string[]; language?: string } }).navigator;
  const preferred = browser?.languages?.[0] ?? browser?.language ?? 'en';
  return preferred.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

function storedLanguage(): Language | null {
  try {
    const stored = storage()?.getItem(STORAGE_KEY);
    return stored === 'ru' || stored === 'en' ? stored : null;
  } catch {
    return null;
  }
}

/** The page's root element; none outside a browser (the unit tests of the catalogue and formats). */
const root = (globalThis as { document?: { documentElement: { lang: string } } }).document?.documentElement;
const storage = () => (globalThis as { localStorage?: Pick<Storage, 'getItem' | 'setItem'> }).localStorage;

let current: Language = storedLanguage() ?? browserLanguage();
if (root) root.lang = current;

export function language(): Language {
  return current;
}

/** The BCP 47 tag Intl formats with. */
export function locale(): string {
  return current === 'ru' ? 'ru-RU' : 'en-GB';
}

/** Switches the language and remembers it in this browser; the app re-renders itself. */
export function setLanguage(next: Language): void {
  current = next;
  if (root) root.lang = next;
  try {
    storage()?.setItem(STORAGE_KEY, next);
  } catch {
    // A browser without storage keeps the choice until the page is reloaded.
  }
}

const pluralRules = new Map<Language, Intl.PluralRules>();
function pluralForm(count: number): Intl.LDMLPluralRule {
  let rules = pluralRules.get(current);
  if (!rules) pluralRules.set(current, (rules = new Intl.PluralRules(locale())));
  return rules.select(count);
}

export function template(key: MessageKey, params: Record<string, unknown> | undefined): string {
  const message = catalogues[current][key];
  if (typeof message === 'string') return message;
  const count = Number(params?.count ?? 0);
  return message[pluralForm(count)] ?? message.other;
}

function formatValue(value: unknown): string {
  return typeof value === 'number' ? new Intl.NumberFormat(locale()).format(value) : String(value);
}

/** The message of `key` in the current language, its placeholders filled in (numbers as the language writes them). */
export function t<K extends MessageKey>(key: K, ...args: Args<K, string | number>): string {
  const params = args[0] as Record<string, unknown> | undefined;
  return template(key, params).replace(/\{(\w+)\}/g, (whole, name: string) => (params && name in params ? formatValue(params[name]) : whole));
}

/**
 * `translate="no"`, for names, identifiers and data that stay as they are in every language (the
 * browser tests skip them when they look for English in the Russian workspace). Preact types the
 * attribute as a boolean, which HTML does not take.
 */
export const untranslated = { translate: 'no' } as unknown as { translate: boolean };
