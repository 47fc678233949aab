/**
 * Whether an answer states an expected fact. A fact is a list of alternatives; an alternative is
 * one phrase or a set of phrases that must all appear. Phrases are compared as a reader reads them:
 * case, runs of whitespace, Markdown emphasis, code spans, escapes and table bars do not count.
 */
export type ExpectedFact = ReadonlyArray<string | readonly string[]>;

const ESCAPED = /\\([\\`*_[\]<>#|])/g;
const MARKUP = /[`*|]+/g;
/** Emphasis with underscores (`_quoted_`), not the underscores inside a name like `rate_limited`. */
const UNDERSCORE_EMPHASIS = /(^|[^\p{L}\p{N}_])_+|_+(?=[^\p{L}\p{N}_]|$)/gu;
const ARROW = /\s*(?:->|=>|→)\s*/g;
const WORD_CHAR = /[\p{L}\p{N}]/u;
/**
 * Scripts whose words are not set apart by spaces (Chinese, Japanese) or take their particles glued
 * on (Korean): next to one of their letters a phrase starts or ends cleanly (`5回` in `は5回です`).
 */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Whether a phrase edge and the character beside it in the text join into one word. */
function joins(edge: string, beside: string | undefined): boolean {
  return beside !== undefined && WORD_CHAR.test(edge) && WORD_CHAR.test(beside) && !UNSPACED.test(edge) && !UNSPACED.test(beside);
}

/** The text as compared: lower case, Markdown marks dropped, whitespace collapsed, arrows written one way. */
export function comparableText(text: string): string {
  return text
    .normalize('NFC')
    .replace(ESCAPED, '$1')
    .replace(MARKUP, ' ')
    .replace(UNDERSCORE_EMPHASIS, '$1 ')
    .replace(ARROW, ' → ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** Whether `phrase` occurs in `text` (both comparable) without cutting a word: `443` is not in `4430`, `24時間` is in `最大24時間まで`. */
function occurs(text: string, phrase: string): boolean {
  if (!phrase) return false;
  for (let at = text.indexOf(phrase); at !== -1; at = text.indexOf(phrase, at + 1)) {
    if (!joins(phrase[0]!, text[at - 1]) && !joins(phrase.at(-1)!, text[at + phrase.length])) return true;
  }
  return false;
}

/** True when the answer holds every phrase of at least one alternative. */
export function statesFact(answer: string, fact: ExpectedFact): boolean {
  const text = comparableText(answer);
  return fact.some((alternative) => (typeof alternative === 'string' ? [alternative] : alternative).every((phrase) => occurs(text, comparableText(phrase))));
}
