import * as v from 'valibot';
import { apiServices } from '../api/build-services.js';
import { V2Body } from '../api/assistant/schema.js';
import type { PreparedAnswer } from '../api/assistant/index.js';
import { sentencesOf } from '../api/assistant/passage-sentences.js';
import { loadConfig } from '../core/config.js';
import { createLogger } from '../core/logger.js';
import { openPlatform } from '../core/platform/index.js';
import { indexDocs } from '../core/retrieval/index.js';
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

export interface AnswerOutcome {
  question: AnswerQuestion;
  /** The answer's text as the reader reads it (citation links included, no suggestions block). */
  answer: string;
  statesFact: boolean;
  /** The answer cites an expected page. */
  citesPage: boolean;
  /** An expected page was among those retrieved for the answer. */
  retrievedPage: boolean;
  refused: boolean;
  /** The naive baseline: the first two sentences of the top-ranked page's passage. */
  baseline: string;
  baselineStatesFact: boolean;
}

/**
 * Indexes a docs folder as a domain is indexed (keyword retrieval, hidden pages left out) into a
 * platform opened over `workDir` with no model and no embedder, and asks every question through
 * the API's answer service, as the assistant routes do: the extractive answer a reader gets.
 */
export async function evaluateAnswers(docsRoot: string, questions: AnswerQuestion[], workDir: string, language?: string): Promise<AnswerOutcome[]> {
  const config = loadConfig({ QUIRE_DATA_DIR: workDir, LOG_LEVEL: 'silent', QUIRE_EMBEDDER: 'none', QUIRE_ASSISTANT_QUERY_REWRITE: 'false' });
  const logger = createLogger('silent', 'answer-eval');
  const platform = await openPlatform(config, { logger, metrics: createMetrics({ orgLabel: false }), env: {}, temporal: 'client' });
  try {
    const { answers } = apiServices(platform);
    if (answers.mode !== 'extractive') throw new Error('the answer eval measures the extractive mode: no model may be configured');
    await indexDocs(platform.docIndex, DOMAIN, docsRoot, { includeHidden: false, ...(language ? { language } : {}) });
    const domain = evalDomain(docsRoot, language);
    const pageSize = defaultPageSize();
    const outcomes: AnswerOutcome[] = [];
    for (const question of questions) {
      const prepared = await answers.prepare({ domain, conversation: { question: question.q, earlier: [] }, pageSize });
      const trace = { id: `eval-${outcomes.length}`, orgId: domain.orgId, domainId: domain.id, threadId: null, surface: 'assistant', caller: 'other', fp: null, currentPath: null } as const;
      let answer = '';
      for await (const delta of answers.answer(prepared, { signal: new AbortController().signal, trace, suggestions: false }).deltas) answer += delta;
      outcomes.push(outcomeOf(question, prepared, answer));
    }
    return outcomes;
  } finally {
    await platform.close();
  }
}

function outcomeOf(question: AnswerQuestion, prepared: PreparedAnswer, answer: string): AnswerOutcome {
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
