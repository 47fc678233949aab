import type { Usage } from './answer-writer.js';
import type { AnswerInput, AnswerRun, Answerer } from './answerer.js';
import { bestCodeBlock, betterBlock } from './passage-code.js';
import { bestList, type ListQuote } from './passage-list.js';
import { bestTableRows } from './passage-table.js';
import { stemmingLanguage } from '../../core/retrieval/index.js';
import { asksCommand, asksQuantity, bestSentences, countedTerm, quoteOf, sharedTerms, termsOf, termsOnPage, type QuestionTerms } from './passage-sentences.js';
import { estimateTokens } from './token-budget.js';
import { wordNoPageHolds } from './uncovered-words.js';

export const EXTRACTIVE_LABEL = '_No language model is configured for this assistant, so this answer quotes the documentation:_';

/** Pages quoted, and sentences taken from each: a short answer, the sources list holds the rest. */
const PAGES_QUOTED = 3;
const SENTENCES_PER_PAGE = 2;

/** Text that reads as itself in Markdown (a page title with `*` or `[` in it). */
const literal = (text: string) => text.replace(/[\\`*_[\]<>#]/g, (c) => `\\${c}`);

const isList = (block: object): block is ListQuote => 'paragraphs' in block;

/** What introduces a quoted block: the page's own line before it (`Install the CLI:`), else its section's heading, else the page's title. */
function leadInOf(block: { leadIn: string | undefined; heading: string | undefined }, title: string): string {
  return block.leadIn ?? `**${literal(block.heading ?? title)}**:`;
}

/**
 * The answer without a model: from each of the best pages, the sentences that
 * share most words with the question, quoted whole and cited `[n]` like a
 * model's answer. The best page's code block that meets the question at least as well as its
 * sentences (the command a reader asked for) is quoted whole with what introduces it, or, when they
 * meet it better, the rows of its tables that do (with the table's header: a limit, a default, a
 * prefix); the rest of a table, MDX components and longer code are left to the page. A page with nothing that meets the question is
 * named with its citation. When no page meets the question, or it asks about a word no page of the
 * site holds (see `wordNoPageHolds`), the answer says the documentation does not seem to cover it.
 */
export function extractiveAnswerer(): Answerer {
  return {
    mode: 'extractive',
    answer({ question, prompt, citations, domain, vocabulary }: AnswerInput): AnswerRun {
      const contact = domain.supportContact ? ` Please contact ${literal(domain.supportContact)}.` : '';
      const blocks: string[] = [];
      let matched = false;
      // The question read as each page is: a page in its own language (its front matter's or navigation's), else the domain's, with that language's stemmer.
      const byLanguage = new Map<string | undefined, QuestionTerms>();
      const quantity = asksQuantity(question);
      const command = asksCommand(question);
      const questionTerms = (tag: string | undefined): QuestionTerms => {
        const language = stemmingLanguage(tag);
        let terms = byLanguage.get(language);
        if (!terms) byLanguage.set(language, (terms = { terms: termsOf(question, language), language, quantity, counted: quantity ? countedTerm(question, language) : undefined, command }));
        return terms;
      };
      if (citations.length === 0) {
        blocks.push(`The documentation does not cover this question.${contact}`);
      } else {
        const quotes: string[] = [];
        const named: string[] = [];
        citations.slice(0, PAGES_QUOTED).forEach((c, i) => {
          // The page's passages, each a section of its own: another passage's heading does not carry into the next.
          const hits = prompt.passages.filter((hit) => hit.path === c.path);
          // The page's opening (the passage before its first heading) is read under the page's title, as a section under its heading:
          // the command that opens an Authentication page answers "How does authentication work?".
          const text = hits.map((hit) => (hit.metadata.anchor === '' && !/^\s*#/.test(hit.content) ? `# ${c.title}\n\n${hit.content}` : hit.content));
          const terms = termsOnPage(questionTerms(hits[0]?.metadata.language ?? domain.language), c.title, text);
          const cite = `[${i + 1}]`;
          const sentences = bestSentences(text, terms, SENTENCES_PER_PAGE);
          const relevant = sentences.filter((s) => s.shared > 0);
          // The best page's command or snippet, when it meets the question at least as well as its prose does.
          const best = relevant.reduce<(typeof relevant)[number] | undefined>((a, s) => (a && a.shared >= s.shared ? a : s), undefined);
          // Or the rows of its tables that say what was asked (a limit, a default), or a short list under its lead-in,
          // when they meet it better than its code: the first of the three that meets it most (see betterBlock).
          const candidates = i === 0 ? [bestCodeBlock(text, terms, best), bestTableRows(text, terms, best), bestList(text, terms, best)] : [];
          const block = candidates.reduce<(typeof candidates)[number]>((a, b) => (betterBlock(a, b) ? b : a), undefined);
          matched ||= relevant.length > 0 || block !== undefined || sharedTerms(c.title, terms) > 0;
          // A page's first sentences stand in for relevant ones only on the best page, and only without its block; a quoted list's items are not quoted twice.
          const listed = block && isList(block) ? block.paragraphs : undefined;
          const quoted = (relevant.length > 0 || (i === 0 && !block) ? sentences : []).filter((s) => !listed?.has(s.paragraph));
          if (quoted.length > 0) quotes.push(`${quoteOf(quoted)} ${cite}\n\n`);
          if (block) quotes.push(`${leadInOf(block, c.title)} ${cite}\n\n${block.markdown}\n\n`);
          if (quoted.length === 0 && !block) named.push(`**${literal(c.title)}** ${cite}`);
        });
        // A question about a word no page of the site holds is not answered by the pages that share its other words.
        // It is read in its best page's language, and looked up as the index cut that page (as English on a site of no language).
        const language = questionTerms(prompt.passages.find((p) => p.path === citations[0]!.path)?.metadata.language ?? domain.language).language;
        const unheard = vocabulary && wordNoPageHolds(question, language, vocabulary, domain.language ? language : undefined);
        if (matched && !unheard) {
          blocks.push(`${EXTRACTIVE_LABEL}\n\n`, ...quotes);
          if (named.length > 0) blocks.push(`See also ${named.join(', ')}.\n\n`);
        } else {
          // Pages that share no word with the question (a hybrid search finds the nearest whatever was asked): named, not quoted as an answer.
          const closest = citations.slice(0, PAGES_QUOTED).map((c, i) => `**${literal(c.title)}** [${i + 1}]`);
          blocks.push(`The documentation does not seem to cover this question.${contact} The closest pages: ${closest.join(', ')}.\n\n`);
        }
      }
      const usage: Usage = { promptTokens: 0, completionTokens: estimateTokens(blocks.join('')) };
      async function* deltas(): AsyncGenerator<string> {
        for (const block of blocks) yield block;
      }
      return { deltas: deltas(), usage: () => usage, matched: citations.length > 0 && matched };
    },
  };
}
