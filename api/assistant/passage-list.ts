/**
 * The short lists of a documentation passage: for an answer without a model, where the answer to
 * "which formats…?" is a list under its lead-in ("choose a period and a format:") that two sentences
 * cannot hold.
 */
import type { PassageBlock } from './passage-blocks.js';
import { betterBlock, leadInOf, meetsQuestion, type QuotableBlock } from './passage-code.js';
import { sectionBlocks, sharedTerms, type Passages, type QuestionTerms } from './passage-sentences.js';

/** Longer lists, or lists of longer items, are the page's to show. */
const MAX_ITEMS = 8;
const MAX_ITEM_CHARS = 240;

export interface ListQuote extends QuotableBlock {
  /** The list as quoted: one `- ` line per item. */
  markdown: string;
  /** The prose line just before it when that line introduces it (ends in a colon). */
  leadIn: string | undefined;
  /** The passage's paragraphs (numbered as `passageSentences` numbers them) that are its items: their sentences are not quoted again beside it. */
  paragraphs: ReadonlySet<number>;
}

/** Every run of list items of the passage, of at most eight short items, with its lead-in, heading and the question's terms they share together. */
export function listsOf(passages: Passages, question: QuestionTerms): ListQuote[] {
  const found: ListQuote[] = [];
  let paragraph = 0;
  let before: PassageBlock | undefined;
  let items: Array<{ text: string; paragraph: number }> = [];
  let opened: { leadIn: string | undefined; heading: string | undefined } = { leadIn: undefined, heading: undefined };
  const close = () => {
    if (items.length >= 2 && items.length <= MAX_ITEMS && items.every((i) => i.text.length <= MAX_ITEM_CHARS)) {
      const texts = items.map((i) => i.text);
      found.push({
        markdown: texts.map((t) => `- ${t}`).join('\n'),
        leadIn: opened.leadIn,
        heading: opened.heading,
        shared: sharedTerms([opened.heading ?? '', opened.leadIn ?? '', ...texts].join('\n'), question),
        sharedInProse: sharedTerms(`${opened.heading ?? ''}\n${opened.leadIn ?? ''}`, question),
        paragraphs: new Set(items.map((i) => i.paragraph)),
      });
    }
    items = [];
  };
  for (const { block, heading, first } of sectionBlocks(passages)) {
    if (first) before = undefined;
    const isItem = block.kind === 'paragraph' && block.item === true;
    if (!isItem || first) close();
    if (block.kind === 'paragraph') paragraph++;
    if (block.kind === 'paragraph' && isItem) {
      if (items.length === 0) opened = { leadIn: leadInOf(before), heading };
      items.push({ text: block.text, paragraph });
    }
    before = block;
  }
  close();
  return found;
}

/** The list to quote beside the passage's best sentence (`best`): the one that meets the question best (see `meetsQuestion`), the first among equals. */
export function bestList(passages: Passages, question: QuestionTerms, best: Parameters<typeof meetsQuestion>[2]): ListQuote | undefined {
  let chosen: ListQuote | undefined;
  for (const list of listsOf(passages, question)) if (meetsQuestion(list, question, best) && betterBlock(chosen, list)) chosen = list;
  return chosen;
}
