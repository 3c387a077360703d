/**
 * The plural forms of a word, by the categories of `Intl.PluralRules` (English has `one` and
 * `other`; Russian adds `few` and `many`): `other` is always there, the rest as the language has them.
 */
export type Plural = { readonly other: string } & { readonly [C in Exclude<Intl.LDMLPluralRule, 'other'>]?: string };

/** Declares plural forms (so a catalogue's shape says "a plural here", whatever the language's forms). */
export function plural(forms: Plural): Plural {
  return forms;
}

/**
 * The shape another language's catalogue must have, made from the English one: every key, texts
 * as any string, functions with the same parameters, lists of headers as long.
 */
export type CatalogueShape<T> = T extends string
  ? string
  : T extends Plural
    ? Plural
    : T extends (...args: infer A) => string
      ? (...args: A) => string
      : T extends readonly string[]
        ? { readonly [I in keyof T]: string }
        : { readonly [K in keyof T]: CatalogueShape<T[K]> };
