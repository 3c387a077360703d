import { en, type Catalogue } from './en.js';
import { ru } from './ru.js';

export type { Catalogue } from './en.js';

/** The languages an account reads its texts in (its `locale`). */
export type Locale = 'ru' | 'en';

const catalogues: Record<Locale, Catalogue> = { en, ru };

/** The texts of a language. */
export function catalogueOf(locale: Locale): Catalogue {
  return catalogues[locale];
}
