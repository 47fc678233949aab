import type { AnalyticsRecorder } from '../../core/analytics/index.js';
import type { CompletionWriter } from '../../core/completions/index.js';
import type { ChatModel } from '../../core/platform/index.js';
import type { Logger } from '../../core/logger.js';
import type { Config } from '../../core/config.js';
import { UnavailableError } from '../../core/errors.js';
import { hitsInBestVersion, hitsInQuestionLanguage, type DocIndex, type PageContent, type SearchFilter, type Vocabulary } from '../../core/retrieval/index.js';
import { secondsSince, type AssistantMetrics } from '../../core/telemetry/index.js';
import type { Domain } from '../../core/tenants/index.js';
import type { ThreadRef, ThreadStore, ThreadTranscript } from '../../core/threads/index.js';
import type { Citation } from './answer-writer.js';
import type { AnswerRun, AnswerTrace, Answerer } from './answerer.js';
import { citationLinker } from './citation-links.js';
import { citationsFor, relevantHits } from './citations.js';
import { CompletionSink } from './completion-sink.js';
import type { Conversation } from './conversation.js';
import { extractiveAnswerer } from './extractive-answerer.js';
import { modelAnswerer, publicFailure } from './model-answerer.js';
import { modelSearch } from './model-search.js';
import { buildPrompt, CHUNKS_PER_PAGE, type AssistantPrompt } from './prompt.js';
import { modelQueryRewriter, questionAsQuery, type QueryRewriter, type RewriteStatus } from './query-rewrite.js';
import type { ContextItem } from './schema.js';
import { searchCall, type SearchCall } from './search-tool.js';
import { blockSeparator, suggestionsBlock } from './suggestions.js';

/**
 * How long a follow-up waits for its thread's earlier exchanges to be committed. The writer thread
 * commits within milliseconds; it falls behind only while the database is down or busy, and then
 * the follow-up is answered as when the thread cannot be read (from the client's own messages,
 * the thread left untouched) rather than held open for the length of the outage.
 */
const THREAD_SETTLE_WAIT_MS = 5_000;

/**
 * How long an answer's stream waits for its exchange to be committed before it ends regardless.
 * Milliseconds when the database is up; bounded so an outage delays the end of a stream, not holds it.
 */
const STREAM_END_WAIT_MS = 2_000;

/** Resolves with `settled`, or rejects as the database being unavailable once `ms` have passed. */
async function settledWithin(settled: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnavailableError('database', 'the thread\'s earlier exchanges are not stored yet')), ms);
  });
  try {
    await Promise.race([settled, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A question to answer from one domain's docs, whichever door it came through. */
export interface AnswerQuestion {
  domain: Domain;
  conversation: Conversation;
  filter?: SearchFilter | undefined;
  /** Pages retrieved: the most sources the answer cites. */
  pageSize: number;
  /** The page the reader is on: its text joins the prompt. */
  currentPath?: string | undefined;
  context?: ContextItem[] | undefined;
}

/** A question retrieved and prompted, ready to answer: what a stream announces before the text. */
export interface PreparedAnswer {
  question: AnswerQuestion;
  /** What retrieval searched for. */
  query: string;
  /** How the model's rewrite went; absent when none was asked for. */
  rewrite?: RewriteStatus | undefined;
  prompt: AssistantPrompt;
  /**
   * One per cited page: `[n]` in the text is `citations[n - 1]`. The model's own searches
   * append the pages they find, numbered on, while the answer streams.
   */
  citations: Citation[];
  /** The domain's vocabulary of the pages the reader may see, for the extractive mode (see `AnswerInput.vocabulary`). */
  vocabulary?: Vocabulary | undefined;
}

export interface AnswerOptions {
  signal: AbortSignal;
  trace: Omit<AnswerTrace, 'question'>;
  /** The thread the exchange is kept in (the assistant routes). */
  thread?: ThreadRef | undefined;
  /** The exchange of that thread this answer answers again: it and the exchanges after it leave the thread. */
  replacing?: string | undefined;
  /** Close a completed answer with the `suggestions` block of its pages (the assistant routes). */
  suggestions?: boolean;
  /** Each search the model ran of its own, as it finished (the assistant routes stream it). */
  onSearch?: (call: SearchCall) => void;
}

/**
 * The one answer path of every door (assistant v1 and v2, MCP `ask`, Chat
 * Completions): retrieval, prompt, answerer, citation links, the answer's
 * metrics, and one completion record per answer.
 */
export interface AnswerService {
  readonly mode: Answerer['mode'];
  /** `signal`: the reader left; the model's query rewrite stops, and the answer that follows asks the model nothing. */
  prepare(question: AnswerQuestion, signal?: AbortSignal): Promise<PreparedAnswer>;
  /** The `search` tool call of a prepared answer: one result per cited page. */
  searchCall(prepared: PreparedAnswer, toolCallId: string): SearchCall;
  /**
   * The answer's text as the reader gets it, `[n]` markers linked to their
   * pages. When the text ends (completed, failed, or the reader left), the
   * answer is recorded once; a failure is thrown as the answerer's error.
   */
  answer(prepared: PreparedAnswer, options: AnswerOptions): AnswerRun;
  /** A thread with every exchange answered so far. */
  loadThread(orgId: string, threadId: string): Promise<ThreadTranscript | undefined>;
  /**
   * Resolves once the thread's exchanges this process took are committed, or after
   * `STREAM_END_WAIT_MS` (a database down or busy). The assistant routes end an answer's stream
   * only then: the reader's next request, on whichever replica, finds the exchange.
   */
  committed(orgId: string, threadId: string): Promise<void>;
}

export interface AnswerServiceDeps {
  docIndex: DocIndex;
  /** Where threads are read from. */
  threads: ThreadStore;
  /** Writes each answer's exchange and analytics record (in its own thread). */
  completions: CompletionWriter;
  /** Its clock stamps each answer's analytics record. */
  recorder: Pick<AnalyticsRecorder, 'now'>;
  answerer: Answerer;
  /** Every answer of every door, measured here once: its first token and how it ended. */
  metrics: AssistantMetrics;
  /** Turns the question into the retrieval query (a model's rewrite, or the question itself). */
  rewriter: QueryRewriter;
  promptTokens: number;
  /** The budget of each search the model runs of its own. */
  searchTimeoutMs: number;
  logger: Logger;
}

/**
 * The answering the platform's chat model allows: with a model, its answerer (and its searches)
 * and its query rewrite over the platform's one connection pool; else the extractive mode and the
 * question as query.
 */
export function configuredAnswering(model: ChatModel, assistant: Pick<Config['assistant'], 'rewriteTimeoutMs' | 'maxSearches'>): { answerer: Answerer; rewriter: QueryRewriter } {
  if (!model.configured) return { answerer: extractiveAnswerer(), rewriter: questionAsQuery };
  const { rewriteTimeoutMs, maxSearches } = assistant;
  return {
    answerer: modelAnswerer(model.settings, model.port, maxSearches),
    rewriter: rewriteTimeoutMs ? modelQueryRewriter(model.port, model.settings.name, rewriteTimeoutMs) : questionAsQuery,
  };
}

/** The trace with its question, field by field (spreading the trace cost more than making the rest of the record). */
function traceOf(t: AnswerOptions['trace'], question: string): AnswerTrace {
  return { id: t.id, orgId: t.orgId, domainId: t.domainId, threadId: t.threadId, question, surface: t.surface, caller: t.caller, fp: t.fp, currentPath: t.currentPath };
}

/**
 * The filter a question's searches use: the one asked for, or, when it names no language and the
 * reader's page has one, that language too: a reader on a French page is answered from the French
 * pages (and from pages of no language), not cited the English ones beside them.
 */
export function scopedFilter(filter: SearchFilter | undefined, page: PageContent | undefined): SearchFilter | undefined {
  if (filter?.language || !page?.language) return filter;
  return { ...filter, language: page.language };
}

export function createAnswerService(deps: AnswerServiceDeps): AnswerService {
  const { docIndex, answerer, metrics } = deps;
  const sink = new CompletionSink(deps);
  return {
    mode: answerer.mode,

    async prepare(question, signal) {
      const { domain, conversation, filter, currentPath } = question;
      // The reader's page does not depend on the query: it is read while the model rewrites.
      const reading = currentPath ? docIndex.getPage(domain.id, currentPath, filter?.groups) : Promise.resolve(undefined);
      reading.catch(() => undefined);
      const { query, status } = await deps.rewriter.rewrite(conversation, signal);
      const page = await reading;
      const scope = scopedFilter(filter, page);
      const found = await docIndex.search(domain.id, {
        query,
        ...(domain.language ? { language: domain.language } : {}),
        pageSize: question.pageSize,
        chunksPerPage: CHUNKS_PER_PAGE,
        ...(scope ? { filter: scope } : {}),
        ...(currentPath ? { currentPath } : {}),
      });
      // A question scoped to no language is answered from the pages in the language it is written in, when the pages found are in several;
      // one scoped to no version, from the version of the best page found.
      const inLanguage = scope?.language ? found : hitsInQuestionLanguage(found, conversation.question);
      const hits = scope?.version ? inLanguage : hitsInBestVersion(inLanguage);
      const prompt = buildPrompt({
        domain,
        conversation,
        hits: relevantHits(hits, question.pageSize),
        page,
        context: question.context,
        budget: deps.promptTokens,
      });
      // Only the extractive mode reads the vocabulary: a model judges for itself what the pages do not say.
      // Only the pages the reader may see count: a word only hidden pages hold is declined as one no page holds.
      const vocabulary = answerer.mode === 'extractive' ? await docIndex.vocabulary(domain.id, filter?.groups) : undefined;
      const scoped = scope === filter ? question : { ...question, filter: scope };
      return { question: scoped, query, rewrite: status, prompt, citations: citationsFor(domain.baseUrl, prompt.passages), ...(vocabulary ? { vocabulary } : {}) };
    },

    searchCall(prepared, toolCallId) {
      return searchCall(toolCallId, prepared.query, prepared.citations, prepared.prompt.passages);
    },

    answer(prepared, options) {
      const { signal } = options;
      const { citations, prompt, question } = prepared;
      const startedAt = new Date().toISOString();
      const search = modelSearch({
        docIndex,
        domain: question.domain,
        pageSize: question.pageSize,
        filter: question.filter,
        currentPath: question.currentPath,
        citations,
        passages: prompt.passages,
        timeoutMs: deps.searchTimeoutMs,
        // A search's passages take at most a quarter of the prompt's budget.
        tokens: Math.floor(deps.promptTokens / 4),
        onSearch: options.onSearch,
      });
      const started = performance.now();
      const run = answerer.answer({ question: question.conversation.question, prompt, citations, domain: question.domain, vocabulary: prepared.vocabulary, signal, orgId: options.trace.orgId, search });
      const linker = citationLinker(citations);
      // One generator over the answerer's text: it links, meters and records (a layer per concern cost a promise hop per delta).
      async function* deltas(): AsyncGenerator<string> {
        let text = '';
        let outcome: 'complete' | 'error' | 'aborted' = 'aborted';
        let error: string | undefined;
        let first = true;
        try {
          // The reader left before the answer began (while it was prepared): the model is never asked.
          if (signal.aborted) return;
          for await (const delta of run.deltas) {
            if (first && delta) {
              first = false;
              metrics.firstToken(secondsSince(started));
            }
            if (signal.aborted) return;
            const linked = linker.push(delta);
            if (!linked) continue;
            text += linked;
            yield linked;
          }
          if (signal.aborted) return;
          let rest = linker.flush();
          const block = options.suggestions ? suggestionsBlock(prompt.passages) : '';
          if (block) rest += blockSeparator(text + rest) + block;
          outcome = 'complete';
          if (rest) {
            text += rest;
            yield rest;
          }
        } catch (err) {
          if (!signal.aborted) [outcome, error] = ['error', publicFailure(err).message];
          throw err;
        } finally {
          // A reader who left mid-answer stops the stream from outside: it ends without an error.
          metrics.answered(signal.aborted ? 'aborted' : outcome === 'complete' ? 'answered' : 'failed', options.trace.orgId);
          sink.complete({
            trace: traceOf(options.trace, question.conversation.question),
            thread: options.thread,
            replacing: options.replacing,
            answer: text,
            citations,
            mode: answerer.mode,
            matched: run.matched,
            outcome,
            error,
            startedAt,
            finishedAt: new Date().toISOString(),
          });
        }
      }
      return { deltas: deltas(), usage: () => run.usage() };
    },

    committed(orgId, threadId) {
      return settledWithin(sink.settled(orgId, threadId), STREAM_END_WAIT_MS).catch(() => undefined);
    },

    async loadThread(orgId, threadId) {
      await settledWithin(sink.settled(orgId, threadId), THREAD_SETTLE_WAIT_MS);
      return deps.threads.load(orgId, threadId);
    },
  };
}
