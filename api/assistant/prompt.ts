import type { PageContent, SearchHit } from '../../core/retrieval/index.js';
import type { Domain } from '../../core/tenants/index.js';
import { citationNumbers, passageUrl } from './citations.js';
import type { Conversation } from './conversation.js';
import type { ContextItem } from './schema.js';
import { estimateTokens, tokensOfLength, truncateToTokens } from './token-budget.js';

export interface PromptMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface AssistantPrompt {
  messages: PromptMessage[];
  /** The passages the model was given, in rank order; a page's passages share its citation number. */
  passages: SearchHit[];
  tokens: number;
}

export interface PromptInput {
  domain: Pick<Domain, 'id' | 'baseUrl' | 'supportContact'>;
  conversation: Conversation;
  hits: SearchHit[];
  page?: PageContent | undefined;
  context?: ContextItem[] | undefined;
  /** Token budget of the whole prompt. */
  budget: number;
}

function instructions(domain: PromptInput['domain']): string {
  const contact = domain.supportContact
    ? ` and suggest contacting ${domain.supportContact}`
    : '';
  return [
    `You are the documentation assistant of ${domain.baseUrl}.`,
    'Answer only from the numbered documentation passages below; never from general knowledge.',
    'Each passage is numbered by its page; passages of one page share the number.',
    'Cite every statement with the number of its page in square brackets, like [1] or [2][3].',
    `When the passages do not answer the question, say plainly that the documentation does not cover it${contact}; do not guess.`,
    'Answer in the language of the question, concisely, in Markdown.',
  ].join('\n');
}

/** A passage as the model reads it: its page's citation number, title and URL, then its text. */
export function passageBlock(n: number, baseUrl: string, hit: SearchHit): string {
  return block(n, passageUrl(baseUrl, hit), hit);
}

function block(n: number, url: string, hit: SearchHit): string {
  return `[${n}] ${hit.metadata.title} (${url})\n${hit.content.trim()}`;
}

/** The tokens `block(n, url, hit)` costs, counted without writing it: `[n] ` title ` (` url `)\n` text. */
function blockTokens(n: number, url: string, hit: SearchHit): number {
  return tokensOfLength(String(n).length + 7 + String(hit.metadata.title).length + url.length + hit.content.trim().length);
}

/**
 * Chunks the assistant asks of each retrieved page (`retrievalPageSize` counts
 * pages): its best section and up to two more as context, so the model sees a
 * page's context without another page losing its place (see `buildPrompt`).
 */
export const CHUNKS_PER_PAGE = 3;

/** The first hit of each page (its best chunk), then the pages' further chunks. */
function admissionOrder(hits: SearchHit[]): SearchHit[] {
  const seen = new Set<string>();
  const leads: SearchHit[] = [];
  const context: SearchHit[] = [];
  for (const hit of hits) {
    if (seen.has(hit.path)) context.push(hit);
    else leads.push(hit);
    seen.add(hit.path);
  }
  return [...leads, ...context];
}

/**
 * The chat prompt within `budget` tokens. Kept in this order of need: our
 * instructions, the question, the passages (in rank order), the reader's
 * snippets and current page (cut to fit), then the latest earlier turns;
 * older turns are the first to go. Hits come grouped by page, best chunk
 * first (see `SearchQuery.chunksPerPage`).
 */
export function buildPrompt(input: PromptInput): AssistantPrompt {
  const { domain, conversation, budget } = input;
  const head = instructions(domain);
  // A question larger than half the budget is cut rather than crowding out the passages.
  const question = truncateToTokens(conversation.question, Math.floor(budget / 2));
  let used = estimateTokens(head) + estimateTokens(question) + 16;

  // Every page's best passage is admitted before any page's further ones; a passage too large is skipped, not the rest.
  // Each passage's URL is made once, for its cost and its block.
  const admitted = new Map<SearchHit, string>();
  for (const hit of admissionOrder(input.hits)) {
    const url = passageUrl(domain.baseUrl, hit);
    const cost = blockTokens(input.hits.length, url, hit) + 2;
    if (used + cost > budget) continue;
    admitted.set(hit, url);
    used += cost;
  }
  // Shown in rank order, so a page's passages stay side by side.
  const passages = input.hits.filter((hit) => admitted.has(hit));
  const numbers = citationNumbers(passages);
  const blocks = passages.map((hit) => block(numbers.get(hit.path) ?? 0, admitted.get(hit)!, hit));

  const extras: string[] = [];
  for (const item of input.context ?? []) {
    const label = item.type === 'code' ? 'Code the reader shared' : 'Text the reader selected';
    const block = `${label}${item.path ? ` (${item.path})` : ''}:\n${item.value}`;
    const room = budget - used - 8;
    if (room <= 32) break;
    const fitted = truncateToTokens(block, room);
    extras.push(fitted);
    used += estimateTokens(fitted) + 2;
  }
  if (input.page) {
    const room = budget - used - 8;
    if (room > 64) {
      const fitted = truncateToTokens(`The reader is viewing the page ${input.page.path} ("${input.page.title}"):\n${input.page.content}`, room);
      extras.push(fitted);
      used += estimateTokens(fitted) + 2;
    }
  }

  const system = [
    head,
    blocks.length > 0 ? `Documentation passages:\n\n${blocks.join('\n\n')}` : 'No documentation passage matched this question.',
    ...extras,
  ].join('\n\n');

  const history: PromptMessage[] = [];
  for (let i = conversation.earlier.length - 1; i >= 0; i--) {
    const turn = conversation.earlier[i]!;
    const cost = estimateTokens(turn.text) + 4;
    if (used + cost > budget) break;
    history.unshift({ role: turn.role, content: turn.text });
    used += cost;
  }

  return {
    messages: [{ role: 'system', content: system }, ...history, { role: 'user', content: question }],
    passages,
    tokens: used,
  };
}
