/**
 * Whole sentences out of a documentation passage, safe to quote in any
 * Markdown renderer: code blocks, tables, headings, images, MDX imports and
 * JSX tags go (their text stays where a component wraps prose), relative
 * links become their text, and inline code keeps balanced backticks.
 */

const FENCE = /^\s*(`{3,}|~{3,})/;
/**
 * After `.`, `!`, `?` or Arabic `؟` and a space, before a capital, a digit or a letter of a script
 * without case (Arabic, Hebrew, Korean): not inside `e.g. this`. After Chinese and Japanese `。！？`,
 * written without a space, and any closing quote or bracket.
 */
const SENTENCE_END = /(?<=[.!?؟])["')\]]*\s+(?=["'(*_`]?[\p{Lu}\p{N}\p{Lo}])|(?<=[。！？][」』）]*)(?![」』）])\s*/u;
const ENDED = /[.!?؟。！？][」』）]*$/u;
/** Chinese and Japanese characters: two of them say about as much as a word of a spaced language. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
/** Runs cut into overlapping pairs to be compared, as search does: Korean words take particles (`키를`). */
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー]{2,}/gu;
const MAX_SENTENCE_CHARS = 320;
const MIN_SENTENCE_WORDS = 4;

/** The passage's prose lines: no code blocks, tables, headings, MDX statements or tags. */
function proseLines(markdown: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const raw of markdown.split('\n')) {
    const opener = FENCE.exec(raw)?.[1];
    if (fence) {
      if (opener && opener[0] === fence[0] && opener.length >= fence.length) fence = undefined;
      continue;
    }
    if (opener) {
      fence = opener;
      continue;
    }
    const line = raw
      .replace(/<\/?[A-Za-z][\w.:-]*(\s[^<>]*)?\/?>/g, ' ') // HTML and JSX tags; their children stay
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
      .replace(/\[([^\]]+)\]\((?!https?:)[^)]*\)/g, '$1') // relative links would point nowhere from the answer
      .replace(/^\s*(?:>\s*)+/, '')
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
      .trim();
    if (!line || /^#{1,6}\s/.test(line) || line.startsWith('|') || /^(import|export)\s/.test(line) || /^\{.*\}$/.test(line)) continue;
    lines.push(line);
  }
  return lines;
}

/** A sentence as quoted: whitespace collapsed, inline code kept only when its backticks pair up. */
function clean(sentence: string): string {
  let text = sentence.replace(/\s+/g, ' ').trim();
  if ((text.match(/`/g)?.length ?? 0) % 2 === 1) text = text.replace(/`/g, '');
  if ((text.match(/\*\*/g)?.length ?? 0) % 2 === 1) text = text.replace(/\*\*/g, '');
  return text;
}

/** Every whole sentence of a passage, in order. A line without end punctuation (a list item) is one sentence. */
export function sentencesOf(markdown: string): string[] {
  const sentences: string[] = [];
  for (const line of proseLines(markdown)) {
    for (const part of line.split(SENTENCE_END)) {
      const sentence = clean(part);
      // A sentence ending in a colon introduces what was left out (a code block, a table).
      if (wordsOf(sentence) < MIN_SENTENCE_WORDS || sentence.length > MAX_SENTENCE_CHARS || /[:：]$/.test(sentence)) continue;
      sentences.push(ENDED.test(sentence) ? sentence : `${sentence}.`);
    }
  }
  return sentences;
}

/** Words between spaces, a Chinese or Japanese pair of characters counting as one. */
function wordsOf(sentence: string): number {
  return sentence.split(' ').length + (sentence.match(CJK_CHAR)?.length ?? 0) / 2;
}

/**
 * Lower-cased words of three letters or more, and each pair of neighbouring Chinese, Japanese or
 * Korean characters (a sentence without spaces is otherwise one word): what a question and a
 * sentence are compared by.
 */
export function termsOf(text: string): Set<string> {
  const lower = text.toLowerCase();
  const terms = new Set(lower.match(/[\p{L}\p{N}]{3,}/gu) ?? []);
  for (const run of lower.match(CJK_RUN) ?? []) {
    const chars = [...run];
    for (let i = 0; i + 1 < chars.length; i++) terms.add(chars[i]! + chars[i + 1]!);
  }
  return terms;
}

/**
 * The `max` sentences of a passage that share most words with the question,
 * in the passage's order; the first sentences when none shares any.
 */
export function bestSentences(markdown: string, question: Set<string>, max: number): string[] {
  const sentences = sentencesOf(markdown);
  const scored = sentences.map((sentence, i) => {
    let shared = 0;
    for (const term of termsOf(sentence)) if (question.has(term)) shared++;
    return { i, shared };
  });
  const chosen = scored
    .sort((a, b) => b.shared - a.shared || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i);
  return chosen.map(({ i }) => sentences[i] ?? '').filter(Boolean);
}
