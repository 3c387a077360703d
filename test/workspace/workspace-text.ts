import type { Page } from 'playwright-core';
import { en } from '../../web/src/i18n/en.js';
import { ru } from '../../web/src/i18n/ru.js';
import { latinWords } from './latin-words.js';

/**
 * What a person reads on the page: the visible text, and the labels, titles and placeholders of
 * visible elements. Code, identifiers and data marked `translate="no"` are left out; so is the
 * map's attribution line (the tile server's own words).
 */
const READ_PAGE = `(() => {
  const skipped = (el) => el.closest('[translate="no"], code, pre, kbd, script, style, .leaflet-control-attribution');
  const shown = (el) => {
    const option = el.closest('option');
    return option ? (option.closest('select')?.checkVisibility() ?? false) : el.checkVisibility({ visibilityProperty: true });
  };
  const texts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.nodeValue.trim();
    if (text && el && !skipped(el) && shown(el)) texts.push(text);
  }
  for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt]')) {
    if (skipped(el) || !shown(el)) continue;
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = el.getAttribute(name);
      if (value && value.trim()) texts.push(value.trim());
    }
  }
  return texts;
})()`;

export async function readPage(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(READ_PAGE);
}

type Entry = string | Partial<Record<string, string>>;
const messages = (catalogue: Record<string, Entry>) =>
  Object.values(catalogue).flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry).filter((v): v is string => v !== undefined)));
/** The parts of a catalogue's messages between placeholders that are long enough to be its own words (two words or more). */
const fragments = (catalogue: Record<string, Entry>) =>
  [...new Set(messages(catalogue).flatMap((text) => text.split(/\{\w+\}/)).map((part) => part.trim()))].filter((part) => /\S+\s+\S+/.test(part) && part.length >= 8);

const englishFragments = fragments(en as Record<string, Entry>);
const russianFragments = fragments(ru as Record<string, Entry>);
const keys = new Set(Object.keys(en));

/** What of the page is not the language it should be: words of the other catalogue, raw keys, unfilled placeholders, and (in Russian) Latin words. */
export function foreignText(texts: string[], language: 'ru' | 'en'): string[] {
  const problems: string[] = [];
  const other = language === 'ru' ? englishFragments : russianFragments;
  for (const text of texts) {
    if (keys.has(text)) problems.push(`a key shown as text: ${text}`);
    const placeholder = /\{\w+\}/.exec(text);
    if (placeholder) problems.push(`an unfilled ${placeholder[0]} in “${text}”`);
    const fragment = other.find((part) => text.includes(part));
    if (fragment) problems.push(`“${fragment}” (the ${language === 'ru' ? 'English' : 'Russian'} catalogue) in “${text}”`);
    if (language === 'ru') for (const word of latinWords(text)) problems.push(`the Latin word “${word}” in “${text}”`);
  }
  return [...new Set(problems)];
}
