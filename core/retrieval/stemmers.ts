import { stemmer as danish } from '@orama/stemmers/danish';
import { stemmer as dutch } from '@orama/stemmers/dutch';
import { stemmer as finnish } from '@orama/stemmers/finnish';
import { stemmer as french } from '@orama/stemmers/french';
import { stemmer as german } from '@orama/stemmers/german';
import { stemmer as italian } from '@orama/stemmers/italian';
import { stemmer as norwegian } from '@orama/stemmers/norwegian';
import { stemmer as portuguese } from '@orama/stemmers/portuguese';
import { stemmer as romanian } from '@orama/stemmers/romanian';
import { stemmer as russian } from '@orama/stemmers/russian';
import { stemmer as spanish } from '@orama/stemmers/spanish';
import { stemmer as swedish } from '@orama/stemmers/swedish';

/**
 * The languages whose words the tokeniser stems with their own Snowball stemmer (from
 * `@orama/stemmers`), by the primary subtag of a BCP 47 tag: `de`, `de-CH` and `de-AT` are all
 * German. English is not among them: its words, and those of every language not listed here, keep
 * the tokeniser's own light English stemmer, so a domain in English or of no stated language is cut
 * exactly as before. Chinese, Japanese and Korean need none: their text is cut into character pairs.
 */
const STEMMERS: Readonly<Record<string, (word: string) => string>> = {
  da: danish,
  de: german,
  es: spanish,
  fi: finnish,
  fr: french,
  it: italian,
  nl: dutch,
  // Norwegian Bokmål and Nynorsk, and the macrolanguage's own tag.
  nb: norwegian,
  nn: norwegian,
  no: norwegian,
  pt: portuguese,
  ro: romanian,
  ru: russian,
  sv: swedish,
};

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
