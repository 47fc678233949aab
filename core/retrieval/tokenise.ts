/**
 * The one tokeniser both stores share, so a query and the text it should find
 * are cut the same way. Identifiers stay whole (`retrievalpagesize`) and also
 * yield their parts (`retrieval`, `page`, `size`), so a reader who types either
 * form finds the chunk. Words are stemmed as English unless the text is said to
 * be in a language with a stemmer of its own (see `stemmingLanguage`): then as
 * that language's, so `Einstellungen` meets `Einstellung` and `configurer` meets
 * `configuration`.
 */
import { stemmerOf } from './stemmers.js';

/**
 * Raised whenever a change cuts some text into other terms. Page hashes include it, so the next
 * index run re-reads every page and the terms stored with it (embedded snapshot, Qdrant sparse
 * vectors) are this tokeniser's, not an older one's that its queries would no longer meet.
 */
export const TOKENISER_REVISION = 3;

// Marks belong to the word they follow: decomposed `é` (e + U+0301), Devanagari vowel signs.
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:[_\-.:/][\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*/gu;
const SEPARATOR = /[_\-.:/]+/;
// Splits lowerUpper and ACRONYMWord humps: `retrievalPageSize`, `HTTPServer`, `v2Api`.
const HUMPS = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+/gu;

const STOPWORDS = new Set(
  (
    'a an and are as at be but by can do does for from has have how i if in into is it its me my of on or ' +
    'our so than that the their then there these they this to was we what when where which who why will ' +
    'with you your'
  ).split(' '),
);

/** A light English stemmer: enough to meet `tokens`/`token`, `indexing`/`index`, `configured`/`configure`. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith('ies') && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ing') && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith('ed') && w.length > 4 && !w.endsWith('eed')) w = w.slice(0, -2);
  else if (/(?:ch|sh|x|z)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith('s') && !/(?:ss|us|is)$/.test(w)) w = w.slice(0, -1);
  // `configure`, `configured` and `configures` all become `configur`.
  if (w.endsWith('e') && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Stems a lower-case word: `stem` for English, a language's Snowball stemmer otherwise. */
type Stemmer = (word: string) => string;

function normalise(word: string, stemWord: Stemmer): string | undefined {
  const lower = word.toLowerCase();
  if (STOPWORDS.has(lower)) return undefined;
  return stemWord(lower);
}

/**
 * The terms one word yields: itself, or an identifier whole, then each
 * separated segment that is an identifier of its own (`relay.cacheTTL` gives
 * `cachettl`, so a reader who types the key without its prefix finds it), then
 * its parts.
 */
function wordTerms(raw: string, stemWord: Stemmer): string[] {
  const segments = raw.split(SEPARATOR).map((piece) => piece.match(HUMPS) ?? [piece]);
  const parts = segments.flat();
  if (parts.length <= 1) {
    const term = normalise(raw, stemWord);
    return term ? [term] : [];
  }
  const whole = raw.replace(/[_\-.:/]+/g, '').toLowerCase();
  const terms = [whole];
  if (segments.length > 1) {
    for (const humps of segments) if (humps.length > 1) terms.push(humps.join('').toLowerCase());
  }
  for (const part of parts) {
    const term = normalise(part, stemWord);
    if (term && term !== whole) terms.push(term);
  }
  return terms;
}

/** Scripts written without spaces between words (Chinese, Japanese), and Korean, whose words take particles. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;

/**
 * The terms of a word holding CJK text: each run of it as overlapping character pairs (`主机名` gives
 * `主机`, `机名`), so a query of any word in a sentence written without spaces meets it; a run of one
 * character is itself. Latin parts (`设置API_KEY`) are words as usual.
 */
function cjkTerms(raw: string, stemWord: Stemmer): string[] {
  const terms: string[] = [];
  for (const run of raw.match(CJK_RUNS) ?? []) {
    if (!CJK.test(run)) {
      terms.push(...wordTerms(run, stemWord));
      continue;
    }
    const chars = [...run];
    if (chars.length === 1) terms.push(run);
    for (let i = 0; i + 1 < chars.length; i++) terms.push(chars[i]! + chars[i + 1]!);
  }
  return terms;
}

/** Accents on Latin and Greek letters, which readers often leave out; marks of other scripts make letters of their own (`が`, Devanagari vowels). */
const ACCENTS = /(?<=[\p{Script=Latin}\p{Script=Greek}])[\u0300-\u036f]+/gu;

/**
 * One form of a word whatever it was written in: composed, full-width Latin and half-width
 * katakana as their usual forms (`ＡＰＩ` is `API`, `ｷｰ` is `キー`), and as a reader types it
 * who leaves out accents: `é` is `e`, `ß` is `ss`, `İ` and `ı` are `i`, `ё` is `е`.
 */
function fold(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(ACCENTS, '')
    .normalize('NFC')
    .replace(/[ßẞıёЁ]/g, (c) => ({ ß: 'ss', ẞ: 'SS', ı: 'i', ё: 'е', Ё: 'Е' })[c] ?? c);
}

/** The terms of one word as written: folded first (see `fold`), then cut and stemmed. */
function termsOf(raw: string, stemWord: Stemmer): string[] {
  const terms: string[] = [];
  const folded = fold(raw);
  for (const word of folded === raw ? [raw] : (folded.match(WORD) ?? [])) terms.push(...(CJK.test(word) ? cjkTerms(word, stemWord) : wordTerms(word, stemWord)));
  return terms;
}

/**
 * The terms of one word in a language with a Snowball stemmer. The folded word is stemmed, as for
 * English, so a reader who leaves accents out (`securite`) still meets the text. A word written with
 * accents is also stemmed as written, then folded, as a Snowball stemmer's suffixes carry them
 * (`sécurité` loses `-ité` and gives `secur`, which `sécuriser` gives too); that term joins the
 * word's when it differs. Words with digits (`v2`, `s3`) are left unstemmed, as in English.
 */
function languageTerms(raw: string, language: string): string[] {
  const stemmer = stemmerOf(language);
  const stemWord: Stemmer = (word) => (/\d/.test(word) ? word : stemmer(word));
  const terms = termsOf(raw, stemWord);
  if (fold(raw) === raw || CJK.test(raw)) return terms;
  const seen = new Set(terms);
  for (const term of wordTerms(raw, stemWord)) {
    const folded = fold(term);
    if (seen.has(folded)) continue;
    seen.add(folded);
    terms.push(folded);
  }
  return terms;
}

/**
 * Words repeat (a docs site has a few thousand distinct ones), and splitting
 * and stemming one costs more than a lookup: indexing spent a quarter of its
 * time here. One cache per language, as a word's terms depend on its
 * stemmer. Each is bounded so a stream of unique words cannot grow it without end.
 */
const WORD_CACHE = new Map<string, string[]>();
const LANGUAGE_CACHES = new Map<string, Map<string, string[]>>();
const WORD_CACHE_LIMIT = 200_000;

/**
 * The terms of a text, in order, repeats kept (term frequencies count them). `language` is a
 * language `stemmingLanguage` gave (`de`); undefined stems as English.
 */
export function tokenise(text: string, language?: string): string[] {
  const cache = language === undefined ? WORD_CACHE : languageCache(language);
  const terms: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    let cached = cache.get(raw);
    if (!cached) {
      if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
      cached = language === undefined ? termsOf(raw, stem) : languageTerms(raw, language);
      cache.set(raw, cached);
    }
    for (const term of cached) terms.push(term);
  }
  return terms;
}

function languageCache(language: string): Map<string, string[]> {
  let cache = LANGUAGE_CACHES.get(language);
  if (!cache) LANGUAGE_CACHES.set(language, (cache = new Map()));
  return cache;
}

/** Term → count for a text, its words stemmed as `language`'s (see `tokenise`). */
export function termFrequencies(text: string, into = new Map<string, number>(), weight = 1, language?: string): Map<string, number> {
  for (const term of tokenise(text, language)) into.set(term, (into.get(term) ?? 0) + weight);
  return into;
}

/** A stable 32-bit id for a term (FNV-1a), the sparse-vector index Qdrant stores. */
export function termId(term: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) {
    hash ^= term.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
