/**
 * Whole sentences out of a documentation passage, safe to quote in any
 * Markdown renderer: code blocks, tables, headings, images, MDX imports and
 * JSX tags go (their text stays where a component wraps prose), relative
 * links become their text, and inline code keeps balanced backticks.
 */
import { tokenise, withinOneEdit } from '../../core/retrieval/index.js';
import { passageBlocks, type PassageBlock } from './passage-blocks.js';

/**
 * After `.`, `!`, `?` or Arabic `؟` and a space, before a capital, a digit or a letter of a script
 * without case (Arabic, Hebrew, Korean): not inside `e.g. this`. A short lower-case word's full stop
 * ends a sentence only before a capital, and not before a letter and its own stop; a single letter's
 * never does: `art. 293`, `fig. 3`, `z. B.`, `d. h.` and `J. Smith` are abbreviations, `…was
 * done. The` is an end. After Chinese and
 * Japanese `。！？`, written without a space, and any closing quote or bracket.
 */
const SENTENCE_END =
  /(?<=[.!?؟])(?<!(?:^|[\s('’])\p{Ll}{1,4}\.)(?<!(?:^|[\s('’.])\p{L}\.)["')\]]*\s+(?=["'(*_`]?[\p{Lu}\p{N}\p{Lo}])|(?<=(?:^|[\s('’])\p{Ll}{1,4}\.)\s+(?!\p{L}\.)(?=["'(*_`]?[\p{Lu}\p{Lo}])|(?<=[。！？][」』）]*)(?![」』）])\s*/u;
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

/** A quotable sentence, with the paragraph it is in (numbered in the passage) and its section's heading. */
export interface PassageSentence {
  sentence: string;
  paragraph: number;
  heading: string | undefined;
}

/**
 * What is quoted from: one passage, or the passages retrieval found of one page. Each passage is
 * a section of its own (it may start with its heading): the heading of the one before does not
 * reach into the next, which may be the page's opening.
 */
export type Passages = string | readonly string[];

/** The blocks of each passage, with the heading of the section each is in. */
export function* sectionBlocks(passages: Passages): Generator<{ block: PassageBlock; heading: string | undefined; first: boolean }> {
  for (const passage of typeof passages === 'string' ? [passages] : passages) {
    let heading: string | undefined;
    let first = true;
    for (const block of passageBlocks(passage)) {
      if (block.kind === 'heading') heading = block.text;
      yield { block, heading, first };
      first = false;
    }
  }
}

/** Every whole sentence of a passage's paragraphs, in order, with where it is. A paragraph without end punctuation (a list item) is one sentence. */
export function passageSentences(passages: Passages): PassageSentence[] {
  const sentences: PassageSentence[] = [];
  let paragraph = 0;
  for (const { block, heading } of sectionBlocks(passages)) {
    if (block.kind !== 'paragraph') continue;
    paragraph++;
    for (const sentence of sentencePieces(block.text)) {
      // A sentence ending in a colon introduces what was left out (a code block, a table).
      if (wordsOf(sentence) < MIN_SENTENCE_WORDS || sentence.length > MAX_SENTENCE_CHARS || /[:：]$/.test(sentence)) continue;
      // A list item ending in `;` or `,` (the next item goes on) is quoted on its own: it ends in a full stop instead.
      sentences.push({ sentence: ENDED.test(sentence) ? sentence : `${sentence.replace(/\s*[;,；，、]$/u, '')}.`, paragraph, heading });
    }
  }
  return sentences;
}

/** Every whole sentence of a passage's paragraphs, in order. */
export function sentencesOf(passages: Passages): string[] {
  return passageSentences(passages).map((s) => s.sentence);
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
export function termsOf(text: string, language?: string): Set<string> {
  const terms = new Set(tokenise(text, language));
  for (const term of terms) if (KANA_ONLY.test(term)) terms.delete(term);
  return terms;
}

/** A pair of hiragana: Japanese grammar (`した`, `って`, `まで`, `です`), which nearly every sentence holds. */
const KANA_ONLY = /^\p{Script=Hiragana}+$/u;

/** A question's terms, and the stemming language (see `stemmingLanguage`; undefined: English) they and a page's passages are cut in: the page's own, else the domain's. */
export interface QuestionTerms {
  terms: Set<string>;
  language: string | undefined;
  /** It asks for a quantity (how many, how long, how often): a sentence stating a number meets it by one more term, and of equals comes first. */
  quantity?: boolean;
  /** What it counts, as a term (`time` for `how many times`, `回` for `何回`): a sentence that states a number of it answers best. */
  counted?: string | undefined;
  /** It asks for a command (`which command`, `Befehl`, `コマンド`): a code block whose heading or lead-in meets it answers it. */
  command?: boolean;
}

/** "Command line" in the languages of ASKS_COMMAND: it names the tool, it does not ask for a command. */
const COMMAND_LINE =
  /command[- ]line|ligne de commandes?|l[ií]nea de comandos?|linha de comandos?|riga di comando|kommandozeile|befehlszeile|opdrachtregel|командн\p{L}* строк\p{L}*|コマンドライン|命令行|명령줄|سطر الأوامر|سطر الاوامر/giu;
/** The words that ask for a command: `command`, `Befehl`, `commande`, `comando`, `команда`, `コマンド`, `命令`, `명령`. */
const ASKS_COMMAND = /(?<!\p{L})(?:commands?|befehle?|kommandos?|commandes?|comandos?|commando'?s?|команд\p{L}*)(?!\p{L})|コマンド|命令|명령/iu;

/** Something to do on the command line (`from the command line`, `über die Kommandozeile`): the command does it. */
const DONE_ON_COMMAND_LINE = /(?<!\p{L})(?:(?:from|on|in|via|with|using|through) the (?:command[- ]line|terminal|shell)|(?:über|auf|mit|in) der (?:Kommandozeile|Befehlszeile)|(?:über|auf|mit) die (?:Kommandozeile|Befehlszeile)|(?:im|mit dem|über das) Terminal)(?!\p{L})/iu;

/** Whether a question asks for a command to run (see `QuestionTerms.command`), not only names the command line. */
export function asksCommand(question: string): boolean {
  return DONE_ON_COMMAND_LINE.test(question) || ASKS_COMMAND.test(question.replace(COMMAND_LINE, ' '));
}

/**
 * The words that ask for a quantity, in the languages Quire stems and in Chinese, Japanese, Korean
 * and Arabic: `how many`, `wie oft`, `combien`, `cuántos`, `сколько`, `何回`, `多少`, `몇`, `كم`.
 */
const ASKS_QUANTITY =
  /(?<!\p{L})(?:how (?:many|much|long|often)|wie (?:viele?|oft|lange)|wieviele?|combien|cu[aá]nt[oa]s?|quant[oaie]s?|hoeveel|hoe (?:lang|vaak)|hur (?:många|mycket|länge|ofta)|hvor (?:mange|mye|meget|længe|lenge|ofte)|kuinka (?:monta|paljon|kauan|usein)|montako|câ(?:t|te|ți)|сколько|как (?:долго|часто))(?!\p{L})|何[回度日秒分件個人]|何時間|いくつ|どのくらい|どれくらい|多少|几|多久|多长|몇|얼마|(?:^|\s)كم(?:\s|$)/iu;

/** Shorter words are left as written: one edit turns too many of them into another word (`flag`, `flat`). */
const MIN_CORRECTED_LENGTH = 5;

/** Stems this long or longer are read as one word with a short ending added (`authenticat`, `authentication`). */
const MIN_DERIVED_STEM = 6;
const MAX_DERIVED_ENDING = 5;

/**
 * Whether one of two terms is the other with a short ending (a derived word the stemmer keeps apart:
 * `authenticat`/`authentication`, `configur`/`configuration`, `deploy`/`deployment`).
 */
function derived(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= MIN_DERIVED_STEM && long.length > short.length && long.length - short.length <= MAX_DERIVED_ENDING && long.startsWith(short);
}

/**
 * The question's terms as a page writes them: a term the page does not hold, one edit away from
 * one it does (`signture`, `retrys`), becomes that term, as retrieval corrected it against the
 * index; the title is read too. The question itself when every term is on the page or none is that
 * near (the same object, so callers can tell).
 */
export function termsOnPage(question: QuestionTerms, title: string, passages: Passages): QuestionTerms {
  const page = termsOf([title, ...(typeof passages === 'string' ? [passages] : passages)].join('\n'), question.language);
  let corrected: Set<string> | undefined;
  for (const term of question.terms) {
    if (page.has(term) || term.length < MIN_CORRECTED_LENGTH || /\d/.test(term)) continue;
    let near: string | undefined;
    for (const word of page) if ((withinOneEdit(term, word) || derived(term, word)) && (!near || word < near)) near = word;
    if (!near) continue;
    corrected ??= new Set(question.terms);
    corrected.delete(term);
    corrected.add(near);
  }
  return corrected ? { ...question, terms: corrected } : question;
}

/**
 * What a question counts: the word after `how many`, `wie viele`, `combien de`, `cuántos`, `сколько`;
 * in Chinese and Japanese, the counter after 何, 多少 or 几 (`回`, `日`, `次`).
 */
const COUNTED = /(?<!\p{L})(?:how many|wie ?viele?|combien d(?:e\s+|['’])|cu[aá]nt[oa]s|quant[oaie]s|сколько)\s*(\p{L}+)|(?:何|多少|几)(\p{Script=Han})/iu;

/** The term a question counts (see `COUNTED`), as `language` cuts it; a counter as it is. Undefined when it counts nothing named. */
export function countedTerm(question: string, language: string | undefined): string | undefined {
  const found = COUNTED.exec(question);
  if (!found) return undefined;
  return found[2] ?? tokenise(found[1]!, language)[0];
}

/** A number and the word after it: `8 times`, `5 tentatives`, `5回`. */
const NUMBER_AND_WORD = /\p{N}[\p{N}.,]*\s*(\p{L}+)/gu;

/** Whether a sentence states a number of the `counted` thing (`8 times` for `how many times`, `5回` for `何回`). */
function countsIn(sentence: string, counted: string, language: string | undefined): boolean {
  for (const [, word] of sentence.matchAll(NUMBER_AND_WORD)) {
    if (word!.startsWith(counted) || tokenise(word!, language)[0] === counted) return true;
  }
  return false;
}

/** Whether a question asks for a quantity (see `QuestionTerms.quantity`). */
export function asksQuantity(question: string): boolean {
  return ASKS_QUANTITY.test(question);
}

/** Whether a sentence states a number (digits of any script). */
const STATES_NUMBER = /\p{N}/u;

/** A sentence chosen to quote: where it is, its place among the passage's sentences, and the number of the question's terms it shares. */
export interface ScoredSentence extends PassageSentence {
  index: number;
  shared: number;
  /**
   * The terms it shares read with its section's heading, as a code block is read (`codeBlocksOf`):
   * what a block is weighed against. A sentence of the section "Rotating keys" that says only
   * "key" meets a question about rotating a key with both. Undefined when it has no heading.
   */
  withHeading: number | undefined;
}

/** How many of `question`'s terms `text` holds. */
export function sharedTerms(text: string, question: QuestionTerms): number {
  let shared = 0;
  for (const term of termsOf(text, question.language)) if (question.terms.has(term)) shared++;
  return shared;
}

/**
 * The `max` sentences of a passage that share most terms with the question, in the passage's
 * order. A sentence that shares none is not chosen beside one that does; when none does, the
 * passage's first sentences are, with `shared` 0.
 */
export function bestSentences(passages: Passages, question: QuestionTerms, max: number): ScoredSentence[] {
  const sentences = passageSentences(passages).map((s, index) => ({
    ...s,
    index,
    shared: sharedTerms(s.sentence, question),
    withHeading: s.heading ? sharedTerms(`${s.heading}\n${s.sentence}`, question) : undefined,
  }));
  const sharing = sentences.filter((s) => s.shared > 0);
  // A question that asks how many is answered by a number: a sentence that states one counts it as one more of the
  // question's terms, and of sentences that meet it as well, one that states a number comes first.
  const answers = (s: PassageSentence) => (!question.quantity || !STATES_NUMBER.test(s.sentence) ? 0 : question.counted && countsIn(s.sentence, question.counted, question.language) ? 2 : 1);
  return (sharing.length > 0 ? sharing : sentences)
    .sort((a, b) => b.shared + answers(b) - a.shared - answers(a) || answers(b) - answers(a) || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index);
}

/** Chosen sentences as one quote: neighbours of one paragraph side by side, a gap between others marked `…`. */
export function quoteOf(sentences: readonly ScoredSentence[]): string {
  return sentences.map((s, i) => (i === 0 ? '' : s.paragraph === sentences[i - 1]!.paragraph && s.index === sentences[i - 1]!.index + 1 ? ' ' : ' … ') + s.sentence).join('');
}
