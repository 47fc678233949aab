import * as v from 'valibot';
import { apiServices } from '../api/build-services.js';
import { V2Body } from '../api/assistant/schema.js';
import type { PreparedAnswer } from '../api/assistant/index.js';
import { sentencesOf } from '../api/assistant/passage-sentences.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { openPlatform } from '../core/platform/index.js';
import { indexDocs, type DocIndex, type RetrievalMode, type VectorCache, type WritableDocIndex } from '../core/retrieval/index.js';
import { createMetrics } from '../core/telemetry/index.js';
import type { Domain } from '../core/tenants/index.js';
import { statesFact } from './answer-facts.js';
import type { AnswerQuestion } from './answer-questions.js';

const DOMAIN = 'eval';
/** The pages an assistant answer retrieves when the reader's request names no number: the routes' default. */
const defaultPageSize = () => v.parse(V2Body, { fp: 'eval', messages: [{ id: 'm', role: 'user', parts: [{ type: 'text', text: 'q' }] }] }).retrievalPageSize;
const CITATION = /\[\[?(\d{1,3})\]/g;
const REFUSAL = /does not (?:seem to )?cover this question/;
const BASELINE_SENTENCES = 2;
/**
 * The query embedder's budget in a hybrid run (the most QUIRE_EMBEDDING_QUERY_TIMEOUT_MS allows): a
 * query the busy local embedder answers late must not fall back to keyword ranking unseen.
 */
const HYBRID_QUERY_TIMEOUT_MS = 60_000;

/**
 * Hybrid retrieval through the bundled local embedder, running on `port` (see `localEmbedding()`):
 * the platform is configured as `QUIRE_EMBEDDER=local` on that port, and page vectors are kept in
 * `cache` between runs.
 */
export interface HybridRetrieval {
  port: number;
  cache: VectorCache;
}

export interface AnswerOutcome {
  question: AnswerQuestion;
  /** The answer's text as the reader reads it (citation links included, no suggestions block). */
  answer: string;
  statesFact: boolean;
  /** The answer cites an expected page. */
  citesPage: boolean;
  /** An expected page was among those retrieved for the answer. */
  retrievedPage: boolean;
  /** The answer says the docs do not cover the question: a false refusal when it is answerable, a decline when it is not. */
  refused: boolean;
  /** The naive baseline: the first two sentences of the top-ranked page's passage. */
  baseline: string;
  baselineStatesFact: boolean;
  /** The naive baseline's decline: the search behind the answer found no page at all. */
  baselineDeclines: boolean;
  /** How the search behind the answer ranked (`SearchHit.metadata.retrieval`); undefined when it found nothing. */
  retrieval: RetrievalMode | undefined;
}

/** The platform's settings: no model, no rewrite; no embedder, or the local one on the port given. */
function evalEnv(workDir: string, hybrid: HybridRetrieval | undefined): Record<string, string> {
  const common = { QUIRE_DATA_DIR: workDir, LOG_LEVEL: 'silent', QUIRE_ASSISTANT_QUERY_REWRITE: 'false' };
  if (!hybrid) return { ...common, QUIRE_EMBEDDER: 'none' };
  return { ...common, QUIRE_EMBEDDER: 'local', QUIRE_EMBEDDER_PORT: String(hybrid.port), QUIRE_EMBEDDING_QUERY_TIMEOUT_MS: String(HYBRID_QUERY_TIMEOUT_MS) };
}

/** The index, remembering how its last search ranked. */
function rememberingRetrieval(index: WritableDocIndex): { index: WritableDocIndex; last: () => RetrievalMode | undefined } {
  let last: RetrievalMode | undefined;
  const search: DocIndex['search'] = async (domainId, query) => {
    const hits = await index.search(domainId, query);
    last = hits[0]?.metadata.retrieval;
    return hits;
  };
  const wrapped = new Proxy(index, {
    get: (target, name) => {
      if (name === 'search') return search;
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { index: wrapped, last: () => last };
}

/**
 * Indexes a docs folder as a domain is indexed (hidden pages left out) into a platform opened over
 * `workDir` with no model, and asks every question through the API's answer service, as the
 * assistant routes do: the extractive answer a reader gets. Without `hybrid` the platform has no
 * embedder (keyword retrieval); with it, the platform is one configured with the local embedder,
 * and the pages are indexed with their vectors, as the worker indexes them.
 */
export async function evaluateAnswers(docsRoot: string, questions: AnswerQuestion[], workDir: string, language?: string, hybrid?: HybridRetrieval): Promise<AnswerOutcome[]> {
  const config = loadConfig(evalEnv(workDir, hybrid));
  const logger = createLogger('silent', 'answer-eval');
  const opened = await openPlatform(config, { logger, metrics: createMetrics({ orgLabel: false }), env: {}, temporal: 'client' });
  try {
    const retrieval = rememberingRetrieval(opened.docIndex);
    const platform = { ...opened, docIndex: retrieval.index };
    const { answers } = apiServices(platform);
    if (answers.mode !== 'extractive') throw new Error('the answer eval measures the extractive mode: no model may be configured');
    if (hybrid && !platform.embeddings.configured) throw new Error('the platform has no embedder: hybrid retrieval cannot be measured');
    const embedding = platform.embeddings.configured && hybrid ? { embedding: { ...platform.embeddings.chunks, cache: hybrid.cache } } : {};
    await indexDocs(platform.docIndex, DOMAIN, docsRoot, { includeHidden: false, ...(language ? { language } : {}), ...embedding });
    const domain = evalDomain(docsRoot, language);
    const pageSize = defaultPageSize();
    const outcomes: AnswerOutcome[] = [];
    for (const question of questions) {
      const prepared = await answers.prepare({ domain, conversation: { question: question.q, earlier: [] }, pageSize });
      const trace = { id: `eval-${outcomes.length}`, orgId: domain.orgId, domainId: domain.id, threadId: null, surface: 'assistant', caller: 'other', fp: null, currentPath: null } as const;
      let answer = '';
      for await (const delta of answers.answer(prepared, { signal: new AbortController().signal, trace, suggestions: false }).deltas) answer += delta;
      outcomes.push(outcomeOf(question, prepared, answer, retrieval.last()));
    }
    return outcomes;
  } finally {
    await opened.close();
  }
}

function outcomeOf(question: AnswerQuestion, prepared: PreparedAnswer, answer: string, retrieval: RetrievalMode | undefined): AnswerOutcome {
  const expected = new Set(question.pages);
  const cited = [...answer.matchAll(CITATION)].map(([, n]) => prepared.citations[Number(n) - 1]?.path);
  const baseline = baselineOf(prepared);
  return {
    question,
    answer,
    statesFact: statesFact(answer, question.expect),
    citesPage: cited.some((page) => page !== undefined && expected.has(page)),
    retrievedPage: prepared.citations.some((c) => expected.has(c.path)),
    refused: REFUSAL.test(answer),
    baseline,
    baselineStatesFact: statesFact(baseline, question.expect),
    baselineDeclines: prepared.citations.length === 0,
    retrieval,
  };
}

/** The first sentences of the top-ranked page's first passage, whatever the question asked. */
function baselineOf(prepared: PreparedAnswer): string {
  const top = prepared.citations[0];
  const passage = top && prepared.prompt.passages.find((p) => p.path === top.path);
  return passage ? sentencesOf(passage.content).slice(0, BASELINE_SENTENCES).join(' ') : '';
}

function evalDomain(docsRoot: string, language: string | undefined): Domain {
  const now = new Date().toISOString();
  return {
    id: DOMAIN,
    orgId: 'eval',
    source: docsRoot,
    docsPath: '.',
    baseUrl: 'https://docs.example.com',
    includeHidden: false,
    ...(language ? { language } : {}),
    createdAt: now,
    updatedAt: now,
  };
}
