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

const NO_WORDS: ReadonlySet<string> = new Set();

/** A language's function words, lower case (`wie`, `le`, `how`): a stemming language (see `stemmingLanguage`), undefined for English; none for a language without a list. */
export function functionWordsOf(language: string | undefined): ReadonlySet<string> {
  return FUNCTION_WORDS[language === undefined ? 'en' : primaryLanguage(language)] ?? NO_WORDS;
}

/** The primary subtag of a BCP 47 tag, lower case (`pt-BR` and `pt_br` give `pt`). */
export function primaryLanguage(tag: string): string {
  return tag.trim().split(/[-_]/)[0]!.toLowerCase();
}

/** The scripts a question's letters are counted in; a language not listed in SCRIPT_OF is written in Latin letters. */
type Script = 'latin' | 'cyrillic' | 'greek' | 'armenian' | 'arabic' | 'hebrew' | 'hangul' | 'kana' | 'han' | 'thai' | 'devanagari' | 'tamil';

const LETTERS: ReadonlyArray<[Script, RegExp]> = [
  ['latin', /\p{Script=Latin}/u],
  ['cyrillic', /\p{Script=Cyrillic}/u],
  ['greek', /\p{Script=Greek}/u],
  ['armenian', /\p{Script=Armenian}/u],
  ['arabic', /\p{Script=Arabic}/u],
  ['hebrew', /\p{Script=Hebrew}/u],
  ['hangul', /\p{Script=Hangul}/u],
  ['kana', /[\p{Script=Hiragana}\p{Script=Katakana}]/u],
  ['han', /\p{Script=Han}/u],
  ['thai', /\p{Script=Thai}/u],
  ['devanagari', /\p{Script=Devanagari}/u],
  ['tamil', /\p{Script=Tamil}/u],
];

/** The scripts languages other than Latin-written ones are written in (Japanese in kana and kanji, Chinese in hanzi). */
const SCRIPT_OF: Readonly<Record<string, readonly Script[]>> = {
  ja: ['kana', 'han'],
  zh: ['han'],
  ko: ['hangul', 'han'],
  ...Object.fromEntries(['ru', 'uk', 'be', 'bg', 'mk', 'kk', 'ky', 'mn', 'tg'].map((l) => [l, ['cyrillic']])),
  // Serbian is written in both alphabets.
  sr: ['cyrillic', 'latin'],
  ...Object.fromEntries(['ar', 'fa', 'ur', 'ps'].map((l) => [l, ['arabic']])),
  he: ['hebrew'],
  yi: ['hebrew'],
  el: ['greek'],
  hy: ['armenian'],
  ta: ['tamil'],
  th: ['thai'],
  ...Object.fromEntries(['hi', 'mr', 'ne', 'sa'].map((l) => [l, ['devanagari']])),
};

/**
 * The script a question is written in: kana whenever it has any (Japanese mixes kanji, kana and
 * Latin names), else the script most of its letters are in (`API` in a Russian question is not
 * what it is written in).
 */
function questionScript(question: string): Script | undefined {
  const counts = new Map<Script, number>();
  for (const letter of question.match(/\p{L}/gu) ?? []) {
    const script = LETTERS.find(([, test]) => test.test(letter))?.[0];
    if (script) counts.set(script, (counts.get(script) ?? 0) + 1);
  }
  if (counts.has('kana')) return 'kana';
  let best: Script | undefined;
  for (const [script, count] of counts) if (!best || count > counts.get(best)!) best = script;
  return best;
}

/**
 * The one of `candidates` (primary subtags) the question is written in: the only one written in
 * its script (a Japanese, Korean, Chinese, Russian or Arabic question on a site in several
 * languages; a question in kanji alone is Chinese when Chinese is one of them), else, among those written in its script, the one whose function words it uses most,
 * when it uses more of one's than of any other's. Undefined when no candidate is written in its
 * script, when it uses no function word, when two tie, or when a candidate of its script is one
 * whose function words are not known here (that language could be the question's).
 */
export function questionLanguage(question: string, candidates: Iterable<string>): string | undefined {
  const script = questionScript(question);
  if (!script) return undefined;
  const scripts = (language: string) => SCRIPT_OF[language] ?? ['latin'];
  const writtenIn = [...candidates].filter((language) => scripts(language).includes(script));
  // Kanji alone are Chinese on a site with Chinese pages (a Japanese question has kana), else Japanese.
  const chinese = writtenIn.filter((language) => scripts(language)[0] === 'han');
  const inScript = script === 'han' && chinese.length > 0 ? chinese : writtenIn;
  if (inScript.length <= 1) return inScript[0];
  const words = question.toLowerCase().match(/\p{L}+/gu) ?? [];
  let best: string | undefined;
  let bestCount = 0;
  let tied = false;
  for (const language of inScript) {
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
