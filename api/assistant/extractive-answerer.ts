import type { Usage } from './answer-writer.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';
import { bestSentences, termsOf } from './passage-sentences.js';
import { estimateTokens } from './token-budget.js';

export const EXTRACTIVE_LABEL = '_No language model is configured for this assistant, so this answer quotes the documentation:_';

/** Pages quoted, and sentences taken from each: a short answer, the sources list holds the rest. */
const PAGES_QUOTED = 3;
const SENTENCES_PER_PAGE = 2;

/** Text that reads as itself in Markdown (a page title with `*` or `[` in it). */
const literal = (text: string) => text.replace(/[\\`*_[\]<>#]/g, (c) => `\\${c}`);

/**
 * The answer without a model: from each of the best pages, the sentences that
 * share most words with the question, quoted whole and cited `[n]` like a
 * model's answer; code, tables and MDX components are left to the page. A
 * page with no quotable sentence is named with its citation.
 */
export function extractiveAnswerer(): Answerer {
  return {
    mode: 'extractive',
    answer({ question, prompt, citations, domain }: AnswerInput): AnswerRun {
      const blocks: string[] = [];
      if (citations.length === 0) {
        const contact = domain.supportContact ? ` Please contact ${literal(domain.supportContact)}.` : '';
        blocks.push(`The documentation does not cover this question.${contact}`);
      } else {
        blocks.push(`${EXTRACTIVE_LABEL}\n\n`);
        const terms = termsOf(question);
        const named: string[] = [];
        citations.slice(0, PAGES_QUOTED).forEach((c, i) => {
          const text = prompt.passages
            .filter((hit) => hit.path === c.path)
            .map((hit) => hit.content)
            .join('\n\n');
          const sentences = bestSentences(text, terms, SENTENCES_PER_PAGE);
          if (sentences.length > 0) blocks.push(`${sentences.join(' ')} [${i + 1}]\n\n`);
          else named.push(`**${literal(c.title)}** [${i + 1}]`);
        });
        if (named.length > 0) blocks.push(`See also ${named.join(', ')}.\n\n`);
      }
      const usage: Usage = { promptTokens: 0, completionTokens: estimateTokens(blocks.join('')) };
      async function* deltas(): AsyncGenerator<string> {
        for (const block of blocks) yield block;
      }
      return { deltas: deltas(), usage: () => usage };
    },
  };
}
