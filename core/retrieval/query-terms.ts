import type { HiddenDocs, KeywordIndex } from './keyword-index.js';
import { stemmingLanguage } from './stemmers.js';
import { tokenise } from './tokenise.js';
import type { SearchQuery } from './types.js';

/** Shorter words are left alone: one edit turns too many of them into another real word (`flag`, `flat`). */
const MIN_CORRECTED_LENGTH = 5;

/** Whether two words differ by at most one insertion, deletion, substitution or swap of neighbours (Damerau). */
export function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    // One substitution, or two neighbours swapped.
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  // One insertion or deletion: skip a character of the longer word.
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * The index's words grouped by length, built on the first correction, so a
 * correction compares a word only with words one character longer, shorter
 * or as long.
 */
export class TypoCorrector {
  private byLength: Map<number, string[]> | undefined;

  constructor(private readonly index: KeywordIndex) {}

  /**
   * The indexed word one edit away from `word` that most documents hold, if any. Documents in
   * `hidden` (ids in ascending order, or as `KeywordIndex.without` gives them) are left out: a word
   * only they hold is no candidate.
   */
  correct(word: string, hidden?: Uint32Array | HiddenDocs): string | undefined {
    if (word.length < MIN_CORRECTED_LENGTH || /\d/.test(word)) return undefined;
    const byLength = (this.byLength ??= groupByLength(this.index.terms()));
    let best: string | undefined;
    let bestDf = 0;
    for (let length = word.length - 1; length <= word.length + 1; length++) {
      for (const candidate of byLength.get(length) ?? []) {
        if (!withinOneEdit(word, candidate)) continue;
        const df = this.index.documentFrequency(candidate, hidden);
        if (df > bestDf || (df === bestDf && best !== undefined && candidate < best)) {
          best = candidate;
          bestDf = df;
        }
      }
    }
    return best;
  }
}

function groupByLength(terms: Iterable<string>): Map<number, string[]> {
  const byLength = new Map<number, string[]>();
  for (const term of terms) {
    const list = byLength.get(term.length);
    if (list) list.push(term);
    else byLength.set(term.length, [term]);
  }
  return byLength;
}

/**
 * A query's distinct terms as the index knows them: a word the index lacks
 * becomes the indexed word one typo away from it (`enviroment` finds
 * `environment`); a word with no such neighbour is kept and simply matches
 * nothing. Documents in `hidden` (see `TypoCorrector.correct`) are read as absent:
 * a word only they hold is corrected like a word none holds, and no word is
 * corrected to one of theirs, so what a reader finds tells nothing of them.
 */
export function resolveQuery(
  text: string,
  index: KeywordIndex,
  typos: TypoCorrector,
  languages: ReadonlyArray<string | undefined> = [undefined],
  hidden?: Uint32Array | HiddenDocs,
): string[] {
  const seen = new Set<string>();
  const terms = new Set<string>();
  for (const term of languages.flatMap((language) => tokenise(text, language))) {
    if (seen.has(term)) continue;
    seen.add(term);
    terms.add(index.documentFrequency(term, hidden) > 0 ? term : (typos.correct(term, hidden) ?? term));
  }
  return [...terms];
}

/**
 * The stemming languages (see `stemmingLanguage`) a query is cut in, each once: the domain's, then the
 * filter's when it differs (a reader of a domain's French pages asks in French). Undefined stands for
 * English. A domain of no language gives `[undefined]` whatever the filter: its pages were all stemmed
 * as English (see `ReadPageOptions.language`), so its queries are cut as they always were.
 */
export function queryLanguages(query: Pick<SearchQuery, 'language' | 'filter'>): Array<string | undefined> {
  if (!query.language) return [undefined];
  const languages = [stemmingLanguage(query.language)];
  const filtered = query.filter?.language;
  if (filtered && !languages.includes(stemmingLanguage(filtered))) languages.push(stemmingLanguage(filtered));
  return languages;
}

/** A query's distinct terms in each of its languages (see `queryLanguages`), for a store that resolves none against its words. */
export function queryTokens(query: Pick<SearchQuery, 'query' | 'language' | 'filter'>): string[] {
  return [...new Set(queryLanguages(query).flatMap((language) => tokenise(query.query, language)))];
}
