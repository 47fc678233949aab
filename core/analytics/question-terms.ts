/**
 * The terms of a question for grouping: lower-cased words of three letters or
 * more (and two-letter acronyms such as CI or UI), common English words
 * removed, plural and verb endings cut, so "Rotating API keys" and "how do I
 * rotate an api key" give the same terms. Function words of other languages
 * stay: the grouping weighs down any term most questions of a period share.
 */

const STOPWORDS = new Set(
  (
    'the and for are but not you your yours can could should would will with without from into onto about above below this that these those ' +
    'there their them they then than what when where which while who whom why how does did doing done have has had having was were been being ' +
    'our ours out off over under again just also any all some such only own same too very more most other each few both here its it\'s ' +
    'can\'t don\'t doesn\'t isn\'t use using used want need get got make way possible please help thanks docs documentation'
  ).split(/\s+/),
);

const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'ies', 'ed', 'es', 's', 'e'];

/** A crude, predictable stemmer: the first listed suffix is cut when at least three letters remain. */
export function stem(word: string): string {
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      if (suffix === 's' && word.endsWith('ss')) return word;
      return suffix === 'ies' ? `${word.slice(0, -3)}y` : word.slice(0, -suffix.length);
    }
  }
  return word;
}

export interface QuestionTerm {
  stem: string;
  word: string;
}

/** Two capitals, or a capital and a digit, as written: a name (CI, UI, S3), where other short words are mostly grammar. */
const ACRONYM = /^\p{Lu}[\p{Lu}\p{N}]$/u;

/**
 * Chinese and Japanese, written without spaces, and Korean, whose words take particles (`서명을`):
 * a run of them is its overlapping pairs of characters, as search cuts it, so two questions meet
 * on a word inside their sentences.
 */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]+/gu;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]/u;

function pairs(run: string): string {
  const chars = [...run];
  return chars.length === 1 ? run : chars.slice(1).map((c, i) => chars[i]! + c).join(' ');
}

export function questionTerms(question: string): QuestionTerm[] {
  const written = question.replace(CJK_RUN, (run) => ` ${pairs(run)} `).match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];
  const seen = new Set<string>();
  const terms: QuestionTerm[] = [];
  for (const original of written) {
    const word = original.toLowerCase();
    if ((word.length < 3 && !ACRONYM.test(original) && !CJK.test(original)) || STOPWORDS.has(word)) continue;
    const s = stem(word);
    if (seen.has(s)) continue;
    seen.add(s);
    terms.push({ stem: s, word });
  }
  return terms;
}
