import type { ComponentChild } from 'preact';
import { template, type Args, type MessageKey } from './i18n.js';

/** A message whose placeholders are elements (a link, a `<code>`), as the children of an element. */
export function tRich<K extends MessageKey>(key: K, ...args: Args<K, ComponentChild>): ComponentChild[] {
  const params = (args[0] ?? {}) as Record<string, ComponentChild>;
  return template(key, params)
    .split(/(\{\w+\})/)
    .filter((part) => part !== '')
    .map((part) => {
      const name = /^\{(\w+)\}$/.exec(part)?.[1];
      return name !== undefined && name in params ? params[name] : part;
    });
}
