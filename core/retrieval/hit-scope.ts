/**
 * Which of the pages found a question that names no language or version is answered from: those of
 * one version (`hitsInBestVersion`), and those in the language the question is written in.
 *
 * Which of its pages' languages a question is written in, told by its function words: for a
 * question that names no language and comes from no page of one, so a reader who asks in English
 * is not cited the French page beside the English one. Statistical detectors guess short questions
 * badly ("Can I pay by invoice?" reads as French to them); among the two or three languages a docs
 * site is written in, the words every question is built of (`how`, `can`, `le`, `wie`, `ich`) tell
 * them apart, and a question with none of them is left alone.
 */
import { LANGUAGES } from './languages.js';
import type { SearchHit } from './types.js';

/** Function words by primary subtag: the languages the tokeniser stems, and English (see `languages.ts`). */
const FUNCTION_WORDS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries(LANGUAGES).map(([tag, { functionWords }]) => [tag, new Set(functionWords.filter(Boolean))]),
);

/** The primary subtag of a BCP 47 tag, lower case (`pt-BR` and `pt_br` give `pt`). */
export function primaryLanguage(tag: string): string {
  return tag.trim().split(/[-_]/)[0]!.toLowerCase();
}

/**
 * The one of `candidates` (primary subtags) whose function words the question uses most, when it
 * uses more of one's than of any other's; undefined when it uses none, when two tie, or when a
 * candidate's function words are not known here (that language could be the question's).
 */
export function questionLanguage(question: string, candidates: Iterable<string>): string | undefined {
  const words = question.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best: string | undefined;
  let bestCount = 0;
  let tied = false;
  for (const language of candidates) {
    const known = FUNCTION_WORDS[language];
    if (!known) return undefined;
    let count = 0;
    for (const word of words) if (known.has(word)) count++;
    if (count > bestCount) [best, bestCount, tied] = [language, count, false];
    else if (count === bestCount) tied = true;
  }
  return bestCount > 0 && !tied ? best : undefined;
}

/**
 * The hits of the version the best of them is in, and those of no version, when the hits are of
 * more than one: a question that names no version is answered from one version of the docs, not
 * from the current page and its legacy twin side by side. The best hit says which (a reader who
 * asks in v1's words finds v1's page first); a hit of no version (a page of every version) says
 * nothing, and the next one does.
 */
export function hitsInBestVersion(hits: SearchHit[]): SearchHit[] {
  const versions = new Set<string>();
  for (const hit of hits) if (hit.metadata.version) versions.add(hit.metadata.version);
  if (versions.size < 2) return hits;
  const version = hits.find((hit) => hit.metadata.version)!.metadata.version;
  return hits.filter((hit) => !hit.metadata.version || hit.metadata.version === version);
}

/**
 * The hits in the question's language, and those of no language, when the hits are in more than one
 * language and the question tells which of them it is in (`questionLanguage`); else all of them.
 */
export function hitsInQuestionLanguage(hits: SearchHit[], question: string): SearchHit[] {
  const languages = new Set<string>();
  for (const hit of hits) if (hit.metadata.language) languages.add(primaryLanguage(hit.metadata.language));
  if (languages.size < 2) return hits;
  const language = questionLanguage(question, languages);
  if (!language) return hits;
  // The language is one of the hits': some hit is kept.
  return hits.filter((hit) => !hit.metadata.language || primaryLanguage(hit.metadata.language) === language);
}
