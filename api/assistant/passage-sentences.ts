/**
 * Whole sentences out of a documentation passage, safe to quote in any
 * Markdown renderer: code blocks, tables, headings, images, MDX imports and
 * JSX tags go (their text stays where a component wraps prose), relative
 * links become their text, and inline code keeps balanced backticks.
 */
import { tokenise } from '../../core/retrieval/index.js';
import { passageBlocks } from './passage-blocks.js';

/**
 * After `.`, `!`, `?` or Arabic `؟` and a space, before a capital, a digit or a letter of a script
 * without case (Arabic, Hebrew, Korean): not inside `e.g. this`. After Chinese and Japanese `。！？`,
 * written without a space, and any closing quote or bracket.
 */
const SENTENCE_END = /(?<=[.!?؟])["')\]]*\s+(?=["'(*_`]?[\p{Lu}\p{N}\p{Lo}])|(?<=[。！？][」』）]*)(?![」』）])\s*/u;
const ENDED = /[.!?؟。！？][」』）]*$/u;
/** Chinese and Japanese characters: two of them say about as much as a word of a spaced language. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu;
const MAX_SENTENCE_CHARS = 320;
const MIN_SENTENCE_WORDS = 4;

/** A sentence as quoted: whitespace collapsed, inline code kept only when its backticks pair up. */
function clean(sentence: string): string {
  let text = sentence.replace(/\s+/g, ' ').trim();
  if ((text.match(/`/g)?.length ?? 0) % 2 === 1) text = text.replace(/`/g, '');
  if ((text.match(/\*\*/g)?.length ?? 0) % 2 === 1) text = text.replace(/\*\*/g, '');
  return text;
}

/** A paragraph cut into its sentences, each as quoted (see `clean`), none left out. */
export function sentencePieces(paragraph: string): string[] {
  return paragraph.split(SENTENCE_END).map(clean).filter(Boolean);
}

/** Every whole sentence of a passage's paragraphs, in order. A paragraph without end punctuation (a list item) is one sentence. */
export function sentencesOf(markdown: string): string[] {
  const sentences: string[] = [];
  for (const block of passageBlocks(markdown)) {
    if (block.kind !== 'paragraph') continue;
    for (const sentence of sentencePieces(block.text)) {
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
 * The terms a question and a passage are compared by: the retrieval tokeniser's (stop words left
 * out, words stemmed, accents folded, Chinese, Japanese and Korean text as character pairs), so a
 * sentence about `installing` meets a question about `install` as the search that found it did.
 */
export function termsOf(text: string): Set<string> {
  return new Set(tokenise(text));
}

/** A sentence chosen to quote, with the number of the question's terms it shares. */
export interface ScoredSentence {
  sentence: string;
  shared: number;
}

/** How many of `question`'s terms `text` holds. */
export function sharedTerms(text: string, question: Set<string>): number {
  let shared = 0;
  for (const term of termsOf(text)) if (question.has(term)) shared++;
  return shared;
}

/**
 * The `max` sentences of a passage that share most terms with the question, in the passage's
 * order. A sentence that shares none is not chosen beside one that does; when none does, the
 * passage's first sentences are, with `shared` 0.
 */
export function bestSentences(markdown: string, question: Set<string>, max: number): ScoredSentence[] {
  const sentences = sentencesOf(markdown).map((sentence, i) => ({ sentence, i, shared: sharedTerms(sentence, question) }));
  const sharing = sentences.filter((s) => s.shared > 0);
  const chosen = (sharing.length > 0 ? sharing : sentences)
    .sort((a, b) => b.shared - a.shared || a.i - b.i)
    .slice(0, max)
    .sort((a, b) => a.i - b.i);
  return chosen.map(({ sentence, shared }) => ({ sentence, shared }));
}
