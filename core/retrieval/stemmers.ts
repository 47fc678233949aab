import { LANGUAGES } from './languages.js';

/**
 * The languages whose words the tokeniser stems with their own Snowball stemmer (see `languages.ts`),
 * by primary subtag. English is not among them: its words, and those of every language not listed
 * there, keep the tokeniser's own light English stemmer, so a domain in English or of no stated
 * language is cut exactly as before. Chinese, Japanese and Korean need none: their text is cut into
 * character pairs.
 */
const STEMMERS: Readonly<Record<string, (word: string) => string>> = Object.fromEntries(
  Object.entries(LANGUAGES).flatMap(([tag, { stemmer }]) => (stemmer ? [[tag, stemmer]] : [])),
);

/** The primary subtags the tokeniser stems with a language's own stemmer, English aside (see STEMMERS). */
export const STEMMED_LANGUAGES: readonly string[] = Object.keys(STEMMERS).sort();

/**
 * The language whose stemmer cuts the words of a text written in `tag` (a BCP 47 tag, any case, `_`
 * taken for `-`): its primary subtag when a stemmer of its own is listed, else undefined, which the
 * tokeniser takes for English. `de-CH` gives `de`; `en-GB`, `ja`, a tag of no listed language and
 * undefined give undefined.
 */
export function stemmingLanguage(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  const primary = tag.trim().split(/[-_]/)[0]!.toLowerCase();
  return Object.hasOwn(STEMMERS, primary) ? primary : undefined;
}

/** The Snowball stemmer of a language `stemmingLanguage` gave; it expects a lower-case word, accents kept. */
export function stemmerOf(language: string): (word: string) => string {
  const stemmer = STEMMERS[language];
  if (!stemmer) throw new Error(`no stemmer for the language ${language}`);
  return stemmer;
}
