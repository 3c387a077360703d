/**
 * The one rule of every free-text filter (the API's and the workspace's): the query is split into
 * words, and a text matches when every word occurs in it, in any order, ignoring case. Stores keep a
 * folded copy of each searchable text (written with `foldCase`) and match the folded words against
 * it with LIKE, so SQLite and PostgreSQL answer alike whatever the database's collation.
 */

/**
 * Lower case, one code point at a time, with the simple (one-to-one) Unicode mapping: what
 * PostgreSQL's `lower()` gives under a UTF-8 locale (C.UTF-8, ru_RU.UTF-8, en_US.UTF-8), on the
 * text in composed form (NFC), so `й` typed as `и` + breve finds a stored `й`. Latin, Cyrillic and
 * Greek fold alike; `Ё` becomes `ё`, which stays a letter apart from `е` (as in PostgreSQL); `İ`
 * becomes `i` and a final `Σ` becomes `σ` (JavaScript's whole-string `toLowerCase` would give `i̇`
 * and `ς`).
 */
export function foldCase(text: string): string {
  let folded = '';
  // Only İ lowers to two code points (i + combining dot above); its simple mapping is the first.
  for (const char of text.normalize('NFC')) folded += String.fromCodePoint(char.toLowerCase().codePointAt(0)!);
  return folded;
}

/**
 * The words of a query, folded, each once: runs of letters and digits (`%`, `_` and `\` count as
 * letters, so they are searched for literally). Everything else separates words: spaces, commas,
 * full stops (`д.` is the word `д`), hyphens (`Санкт-Петербург` is two words, found in
 * `Санкт-Петербург` and in `Санкт Петербург`), slashes, quotes, brackets, `№`.
 */
export function searchWords(query: string): string[] {
  const words = foldCase(query)
    .split(/[^\p{L}\p{M}\p{N}%_\\]+/u)
    .filter((word) => word !== '');
  return [...new Set(words)];
}

/** Whether every word (from `searchWords`) occurs in the text, ignoring case. */
export function matchesWords(text: string, words: readonly string[]): boolean {
  const folded = foldCase(text);
  return words.every((word) => folded.includes(word));
}

/** A `LIKE … ESCAPE '\'` pattern that finds the word anywhere: `%`, `_` and `\` taken literally. */
export function containsPattern(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
