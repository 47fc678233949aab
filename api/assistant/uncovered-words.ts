/**
 * What tells that the docs do not answer a question even though pages share some of its words: a
 * word the question turns on that no page of the whole site holds. Pages found for "Does Skylark
 * support GraphQL subscriptions?" share `Skylark` and `support` with it; when no page anywhere
 * says `GraphQL`, quoting them answers another question. The site is the pages the reader may see:
 * a word only pages of access groups not theirs hold is on no page (the vocabulary holds no other).
 */
import { functionWordsOf, tokenise, type Vocabulary } from '../../core/retrieval/index.js';

/**
 * Shorter terms are left out: abbreviations and short words (`SLA`, `vue`, `ldap`) are written too
 * many ways for one page's absence to say much, as a typo reading leaves them alone too.
 */
const MIN_DISTINCTIVE_LENGTH = 5;
/** A word as the tokeniser takes one: letters and digits, joined by `_ - . : /` into one identifier. */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*(?:[_\-.:/][\p{L}\p{N}][\p{L}\p{M}\p{N}]*)*/gu;
const JOINED = /[_\-.:/]/;
/** A name as products and standards are written: a capital after the first letter (`GraphQL`, `PayPal`, `HIPAA`, `iPhone`). */
const NAMED = /^.+\p{Lu}/u;
/** A word written with a capital first: inside a sentence, a name (`Heroku`, `Slack`), in a language that writes its nouns in lower case. */
const CAPITALISED = /^\p{Lu}/u;
/** Languages (stemming languages) that write every noun with a capital, where one says nothing of a name (`Englisch`, `Statuscode`). */
const NOUNS_CAPITALISED: ReadonlySet<string | undefined> = new Set(['de']);
/**
 * Words English writes with a capital that are no names of products or places the docs would hold: of
 * peoples and languages (`European`, `English`, `Japanese`), days and months.
 */
const ENGLISH_CAPITALISED = /^(?:\p{L}+(?:an|ish|ese)|\p{L}+day|january|february|march|april|may|june|july|august|september|october|november|december)$/iu;
/** What ends a sentence, or opens one (a colon's, a Spanish `¿`), and what may stand before its first word. */
const SENTENCE_START = /(?:^|[.!?:;¿¡؟。！？])[\s"'“‘«(*_`¿¡]*$/u;

/** Latin letters, and a word of them inside a word of another script (`Python` in `Python用のSDK`, `Slack` in `Slack으로`). */
const LATIN = /\p{Script=Latin}/gu;
const LATIN_WORD = /\p{Script=Latin}[\p{Script=Latin}\p{N}]*/gu;
const IN_LATIN = /^\p{Script=Latin}/u;

/**
 * Whether a question is written in another script than Latin: it holds Chinese, Japanese or Korean
 * (whose few letters a name's outnumber: `Python用のSDKはありますか`), or most of its letters are of
 * another script. Then a word in Latin letters is a name (`Python`, `Slack`, `Docker`).
 */
function foreignScript(question: string): boolean {
  const letters = question.match(/\p{L}/gu)?.length ?? 0;
  return CJK.test(question) || (question.match(LATIN)?.length ?? 0) * 2 < letters;
}

/**
 * Whether a word of the question is a name: written as one (`GraphQL`), in Latin letters in a
 * question of another script, or with a capital inside a sentence of a language whose nouns take none.
 */
function named(word: string, before: string, language: string | undefined, foreign: boolean): boolean {
  if (NAMED.test(word) || (foreign && IN_LATIN.test(word))) return true;
  if (!CAPITALISED.test(word) || SENTENCE_START.test(before) || NOUNS_CAPITALISED.has(language)) return false;
  return !(language === undefined && ENGLISH_CAPITALISED.test(word));
}
/** Chinese, Japanese and Korean: cut into character pairs, of which a pair no page holds may only straddle two words. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A term no page holds, nor one a typo away from it. */
function unheard(term: string, vocabulary: Vocabulary): boolean {
  return term.length >= MIN_DISTINCTIVE_LENGTH && !/\d/.test(term) && vocabulary.documentFrequency(term) === 0 && vocabulary.nearest(term) === undefined;
}

/** The question's words, and the Latin words inside its Chinese, Japanese and Korean ones, which run on into the letters about them. */
function* wordsOf(question: string): Generator<{ word: string; index: number }> {
  for (const match of question.matchAll(WORD)) {
    if (!CJK.test(match[0])) yield { word: match[0], index: match.index };
    else for (const latin of match[0].matchAll(LATIN_WORD)) yield { word: latin[0], index: match.index + latin.index };
  }
}

/**
 * The question's first name (see `named`: `GraphQL`, or `Heroku` inside a sentence), not one of
 * `language`'s function words, of five letters or more that no page of the site holds, even read as a typo of one that a page holds; undefined when
 * every such word is on some page. `language` is the stemming language the question is written in
 * (see `stemmingLanguage`: its best page's), and `stemming` the one the index cut that page's words
 * in, which the question's are cut in to be looked up: the same, except on a site of no language,
 * whose pages are all cut as English whatever language they are in. A word written whole
 * (`GraphQL`, `PayPal`) is judged as itself; one joined of several (`two-factor`, `Node.js`) by its
 * parts, as a page may write them apart.
 */
export function wordNoPageHolds(question: string, language: string | undefined, vocabulary: Vocabulary, stemming: string | undefined): string | undefined {
  const functionWords = functionWordsOf(language);
  const foreign = foreignScript(question);
  for (const { word, index } of wordsOf(question)) {
    if (CJK.test(word) || functionWords.has(word.toLowerCase()) || !named(word, question.slice(0, index), language, foreign)) continue;
    const terms = tokenise(word, stemming);
    const judged = JOINED.test(word) ? terms.slice(1) : terms.slice(0, 1);
    const found = judged.find((term) => unheard(term, vocabulary));
    if (found) return found;
  }
  return undefined;
}
