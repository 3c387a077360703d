/** A plural message: the forms a language needs (`one`, `few`, `many`, `other` for Russian). */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** The shape of an English part: the same keys, each a string, or plural forms where English has them. */
export type CatalogueOf<T> = { [K in keyof T]: T[K] extends string ? string : Plural };
