import type { DocIndex, SearchFilter } from '../../core/retrieval/index.js';
import type { Domain } from '../../core/tenants/index.js';
import { buildPrompt, CHUNKS_PER_PAGE, citationsFor, retrievalQuery, type AnswerRun, type AnswerTrace, type Answerer, type Citation, type Conversation } from '../assistant/index.js';

export interface DocsQuestion {
  domain: Domain;
  conversation: Conversation;
  filter?: SearchFilter | undefined;
  /** Passages retrieved for the prompt. */
  pageSize: number;
  signal: AbortSignal;
  /** What analytics records about the answer (the question itself is the conversation's). */
  trace?: Omit<AnswerTrace, 'question'> | undefined;
}

export interface DocsAnswer {
  run: AnswerRun;
  /** In prompt order: `citations[n - 1]` is the passage the answer cites as `[n]`. */
  citations: Citation[];
  mode: Answerer['mode'];
}

export interface DocsAnswerDeps {
  docIndex: DocIndex;
  answerer: Answerer;
  promptTokens: number;
}

/**
 * The assistant's answer path without its stream protocol: the same retrieval
 * query, prompt, citations and answerer, for callers that speak another
 * protocol (MCP, Chat Completions).
 */
export async function answerFromDocs(deps: DocsAnswerDeps, question: DocsQuestion): Promise<DocsAnswer> {
  const { domain, conversation, filter } = question;
  const hits = await deps.docIndex.search(domain.id, {
    query: retrievalQuery(conversation),
    pageSize: question.pageSize,
    chunksPerPage: CHUNKS_PER_PAGE,
    ...(filter ? { filter } : {}),
  });
  const prompt = buildPrompt({ domain, conversation, hits, budget: deps.promptTokens });
  const citations = citationsFor(domain.baseUrl, prompt.passages);
  const trace = question.trace ? { ...question.trace, question: conversation.question } : undefined;
  const run = deps.answerer.answer({ prompt, citations, domain, signal: question.signal, trace });
  return { run, citations, mode: deps.answerer.mode };
}
