/**
 * The rows of a documentation passage's tables that meet a question: for an answer without a model,
 * where a limit, a default or a prefix is often a table's cell ("Per organization, all tokens |
 * 3,000 requests per minute") and no sentence says it.
 */
import type { PassageBlock } from './passage-blocks.js';
import { betterBlock, leadInOf, meetsQuestion, type QuotableBlock } from './passage-code.js';
import { sectionBlocks, sharedTerms, type Passages, type QuestionTerms } from './passage-sentences.js';

/** Rows quoted at most: the table is the page's to show; an answer quotes the lines asked about. */
const MAX_ROWS = 3;

export interface TableRows extends QuotableBlock {
  /** The table as quoted: its header, its delimiter row and the chosen rows, as written. */
  markdown: string;
  /** The prose line just before it when that line introduces it (ends in a colon). */
  leadIn: string | undefined;
}

/**
 * The rows of each table of the passage that share most of the question's terms (at least one, at
 * most three, in the table's order), with the table's header, lead-in and section heading, and the
 * terms they all share together: a row is read with its header (`Limit | Value` names what
 * `3,000` is).
 */
export function tableRowsOf(passages: Passages, question: QuestionTerms): TableRows[] {
  const found: TableRows[] = [];
  let before: PassageBlock | undefined;
  for (const { block, heading, first } of sectionBlocks(passages)) {
    if (first) before = undefined;
    if (block.kind === 'table') {
      const scored = block.rows.map((row) => ({ row, shared: sharedTerms(row, question) }));
      const most = Math.max(0, ...scored.map((r) => r.shared));
      if (most > 0) {
        const rows = scored.filter((r) => r.shared === most).slice(0, MAX_ROWS).map((r) => r.row);
        const leadIn = leadInOf(before);
        found.push({
          markdown: [block.header, block.delimiter, ...rows].join('\n'),
          leadIn,
          heading,
          shared: sharedTerms([heading ?? '', leadIn ?? '', block.header, ...rows].join('\n'), question),
          sharedInProse: sharedTerms(`${heading ?? ''}\n${leadIn ?? ''}`, question),
        });
      }
    }
    before = block;
  }
  return found;
}

/** The table rows to quote beside the passage's best sentence (`best`): those that meet the question best (see `meetsQuestion`), the first among equals. */
export function bestTableRows(passages: Passages, question: QuestionTerms, best: Parameters<typeof meetsQuestion>[2]): TableRows | undefined {
  let chosen: TableRows | undefined;
  for (const rows of tableRowsOf(passages, question)) if (meetsQuestion(rows, question, best) && betterBlock(chosen, rows)) chosen = rows;
  return chosen;
}
