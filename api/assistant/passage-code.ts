/**
 * The code blocks of a documentation passage, each with what introduces it: for an answer without
 * a model, where the command a reader asked for is often the answer itself.
 */
import type { PassageBlock } from './passage-blocks.js';
import { sectionBlocks, sentencePieces, sharedTerms, type Passages, type QuestionTerms } from './passage-sentences.js';

/** Longer blocks are the page's to show: an answer quotes a command or a short snippet. */
const MAX_CODE_LINES = 15;
/** Fenced blocks that are not code a reader runs or copies. */
const NOT_CODE = new Set(['suggestions', 'mermaid', 'math']);

export interface CodeBlock extends QuotableBlock {
  /** The block as quoted: its fence and language, its lines unchanged, its closing fence. */
  markdown: string;
  /** The prose line just before it when that line introduces it (ends in a colon), cleaned for quoting. */
  leadIn: string | undefined;
  /** The heading of the section it is in, as text. */
  heading: string | undefined;
  /** How many of the question's terms the block, its lead-in and its heading hold together. */
  shared: number;
  /** How many its lead-in and heading hold: the prose that says what the block is for. */
  sharedInProse: number;
}

/**
 * Every complete fenced block of the passage (a block the passage cuts off is left out: its end
 * is not known), of at most 15 lines, with its lead-in (the last sentence of the paragraph just
 * before it, when that sentence ends in a colon), its section's heading, and the question's terms
 * they share. Diagrams, formulas and the answer's own `suggestions` blocks are not code.
 */
export function codeBlocksOf(passages: Passages, question: QuestionTerms): CodeBlock[] {
  const found: CodeBlock[] = [];
  let before: PassageBlock | undefined;
  for (const { block, heading, first } of sectionBlocks(passages)) {
    // A passage's first block follows nothing of its own: the last paragraph of the passage before is another section's.
    if (first) before = undefined;
    if (block.kind === 'code' && block.complete) {
      const { fence, language, body } = block;
      const leadIn = leadInOf(before);
      if (!NOT_CODE.has(language.toLowerCase()) && body.length <= MAX_CODE_LINES && body.some((l) => l.trim())) {
        const shared = sharedTerms([heading ?? '', leadIn ?? '', ...body].join('\n'), question);
        const sharedInProse = sharedTerms(`${heading ?? ''}\n${leadIn ?? ''}`, question);
        found.push({ markdown: [`${fence}${language}`, ...body, fence].join('\n'), leadIn, heading, shared, sharedInProse });
      }
    }
    before = block;
  }
  return found;
}

/** The last sentence of the paragraph `before` a block, when it introduces the block (ends in a colon). */
export function leadInOf(before: PassageBlock | undefined): string | undefined {
  const last = before?.kind === 'paragraph' ? sentencePieces(before.text).at(-1) : undefined;
  return last && /[:：]$/.test(last) ? last : undefined;
}

/**
 * Whether block `b` meets the question better than `a` (none yet): more of its terms, or as many
 * and more of them in what introduces it (a table under "Key types" before a `curl` call whose
 * `Content-Type` header happens to say "type").
 */
export function betterBlock<T extends QuotableBlock>(a: T | undefined, b: T | undefined): boolean {
  if (!b) return false;
  if (!a) return true;
  return b.shared > a.shared || (b.shared === a.shared && b.sharedInProse > a.sharedInProse);
}

/** What a quoted block (code, or a table's rows) is weighed by against the passage's best sentence. */
export interface QuotableBlock {
  heading: string | undefined;
  shared: number;
  sharedInProse: number;
}

/**
 * Whether a block (code, a table's rows) is quoted beside the passage's best sentence (`best`,
 * undefined when no sentence meets the question): it shares at least one of the question's terms
 * and, in the best sentence's section, at least as many as it; in another section, more than it
 * does read with its heading (as the block is). With no such sentence, a block stands alone only
 * when what introduces it shares a term too, or it holds more than half of the question's: a word
 * met only in the code (`invoices.fifo` for a question about paying by invoice) does not make it the
 * answer. A question that asks for a command takes any block whose heading or lead-in shares one of its terms.
 */
export function meetsQuestion(
  block: QuotableBlock,
  question: QuestionTerms,
  best: { shared: number; withHeading: number | undefined; heading: string | undefined } | undefined,
): boolean {
  if (!best && block.sharedInProse === 0 && block.shared * 2 <= question.terms.size) return false;
  // A question that asks for a command is answered by the code its heading or lead-in introduces, beside the best sentence however well that meets it.
  if (question.command && block.sharedInProse > 0) return true;
  const needed = !best ? 1 : block.heading === best.heading ? Math.max(1, best.shared) : (best.withHeading ?? best.shared) + 1;
  return block.shared >= needed;
}

/** The code block to quote beside the passage's best sentence (`best`): the one that meets the question best (see `meetsQuestion`), the first among equals. */
export function bestCodeBlock(
  passages: Passages,
  question: QuestionTerms,
  best: { shared: number; withHeading: number | undefined; heading: string | undefined } | undefined,
): CodeBlock | undefined {
  let chosen: CodeBlock | undefined;
  for (const block of codeBlocksOf(passages, question)) {
    if (meetsQuestion(block, question, best) && betterBlock(chosen, block)) chosen = block;
  }
  return chosen;
}
