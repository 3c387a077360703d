// The workspace's two catalogues (web/src/i18n): the same keys, the same placeholders, Russian
// plural forms, no English left in the Russian one, and no key that the workspace never uses.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { en } from '../../web/src/i18n/en.js';
import { ru } from '../../web/src/i18n/ru.js';
import { latinWords } from './latin-words.js';

const WEB = join(import.meta.dirname, '..', '..', 'web', 'src');
/** Where the keys are defined, not used. */
const CATALOGUES = new Set(['en', 'ru', 'en.ts', 'ru.ts'].map((name) => join(WEB, 'i18n', name)));

type Entry = string | Partial<Record<string, string>>;
const texts = (entry: Entry): string[] => (typeof entry === 'string' ? [entry] : Object.values(entry).filter((v): v is string => v !== undefined));
const placeholders = (entry: Entry) => new Set(texts(entry).flatMap((text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return CATALOGUES.has(path) ? [] : sources(path);
    return /\.tsx?$/.test(name) && !CATALOGUES.has(path) ? [path] : [];
  });
}

describe('workspace catalogues', () => {
  const english = en as Record<string, Entry>;
  const russian = ru as Record<string, Entry>;

  it('have the same keys', () => {
    assert.deepEqual(Object.keys(russian).sort(), Object.keys(english).sort());
  });

  it('fill in only placeholders the English message has, and every one where the message needs it', () => {
    for (const [key, message] of Object.entries(english)) {
      const wanted = placeholders(message);
      const got = placeholders(russian[key]!);
      for (const name of got) assert.ok(wanted.has(name), `${key}: the Russian text names {${name}}, which the English one does not give`);
      // A Russian message may leave out what it does not need ({message} of an English server text); a count it must show.
      if (wanted.has('count')) assert.ok(got.has('count') || typeof russian[key] === 'string', `${key}: the Russian text shows {count}`);
    }
  });

  it('give Russian plurals their one, few and many forms', () => {
    for (const [key, message] of Object.entries(russian)) {
      if (typeof message === 'string') continue;
      for (const form of ['one', 'few', 'many', 'other']) assert.ok(message[form], `${key}: the form ${form}`);
    }
  });

  it('leave no English word in the Russian texts', () => {
    const found = Object.entries(russian).flatMap(([key, message]) => texts(message).flatMap((text) => latinWords(text.replace(/\{\w+\}/g, ' ')).map((word) => `${key}: ${word}`)));
    assert.deepEqual(found, []);
  });

  it('hold no key the workspace does not use', () => {
    const code = sources(WEB).map((path) => readFileSync(path, 'utf8')).join('\n');
    const unused = Object.keys(english).filter((key) => !code.includes(`'${key}'`));
    assert.deepEqual(unused, [], 'keys no page asks for: remove them from en.ts and ru.ts');
  });
});
