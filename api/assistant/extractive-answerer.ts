import type { Usage } from './answer-writer.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';
import { estimateTokens } from './token-budget.js';

export const EXTRACTIVE_LABEL =
  '_No language model is configured for this assistant, so these are the most relevant passages of the documentation, quoted as they are:_';

const MAX_PASSAGE_CHARS = 600;

function quote(text: string): string {
  const trimmed = text.trim();
  const cut = trimmed.length > MAX_PASSAGE_CHARS ? `${trimmed.slice(0, MAX_PASSAGE_CHARS).trimEnd()}…` : trimmed;
  return cut
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/**
 * The answer without a model: each page's best passage quoted with its citation
 * numbers, labelled as such, streamed one block at a time like a model answer.
 */
export function extractiveAnswerer(): Answerer {
  return {
    mode: 'extractive',
    answer({ prompt, citations, domain }: AnswerInput): AnswerRun {
      const blocks: string[] = [];
      if (prompt.passages.length === 0) {
        const contact = domain.supportContact ? ` Please contact ${domain.supportContact}.` : '';
        blocks.push(`The documentation does not cover this question.${contact}`);
      } else {
        blocks.push(`${EXTRACTIVE_LABEL}\n\n`);
        // One quote per page, its best passage: the page's further passages are context for a model.
        const quoted = new Set<string>();
        prompt.passages.forEach((hit, i) => {
          if (quoted.has(hit.path)) return;
          quoted.add(hit.path);
          const c = citations[i];
          blocks.push(`**${c?.title ?? hit.metadata.title}** [${i + 1}]\n\n${quote(hit.content)}\n\n`);
        });
      }
      const usage: Usage = { promptTokens: 0, completionTokens: estimateTokens(blocks.join('')) };
      async function* deltas(): AsyncGenerator<string> {
        for (const block of blocks) yield block;
      }
      return { deltas: deltas(), usage: () => usage };
    },
  };
}
