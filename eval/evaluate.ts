import path from 'node:path';
import * as v from 'valibot';
import { SearchBody } from '../api/search/schema.js';
import { searchDomain } from '../api/search/search-domain.js';
import { cosine } from '../core/retrieval/embeddings.js';
import { EmbeddedDocIndex, indexDocs, QueryEmbedder, type ChunkEmbedding, type Embedder } from '../core/retrieval/index.js';
import { loadSnapshot } from '../core/retrieval/snapshot-file.js';
import { Bm25PageIndex } from './bm25.js';
import { readWholePages } from './corpus-pages.js';
import { firstRelevantRank, rankedPages, scoreRanks, type Scores } from './metrics.js';
import type { Question, Split } from './questions.js';

/** What the chat widget asks the search endpoint for. */
export const PAGE_SIZE = 10;
const DOMAIN = 'eval';
const SPLITS: Split[] = ['dev', 'test'];

/**
 * The engines of one run: Quire's search endpoint keyword-only and hybrid
 * (keyword fused with the embedder's page vectors), the page vectors alone,
 * and the plain BM25 baseline.
 */
export const ENGINES = ['keyword', 'hybrid', 'dense', 'bm25'] as const;
export type Engine = (typeof ENGINES)[number];

export const ENGINE_NAMES: Record<Engine, string> = {
  keyword: 'Quire, keyword',
  hybrid: 'Quire, hybrid',
  dense: 'page vectors only',
  bm25: 'BM25, whole pages',
};

export interface EngineAnswer {
  /** 1-based rank of the first answering page among the first 10 distinct pages; 0 when absent. */
  rank: number;
  /** Distinct pages in rank order. */
  pages: string[];
}

export interface QuestionOutcome {
  question: Question;
  /** Hybrid and dense are absent when the run had no embedder. */
  answers: Partial<Record<Engine, EngineAnswer>>;
}

export interface CorpusRun {
  /** Pages Quire indexed, chunks, page vectors, broken pages and indexing seconds. */
  quireIndex: { pages: number; chunks: number; vectors: number; broken: string[]; seconds: number };
  /** Page files the baseline ranks (all of them: it knows no navigation). */
  baselinePages: number;
  /** The embedder's identity, when the run had one. */
  embedder: string | undefined;
  outcomes: QuestionOutcome[];
}

/** Asks each distinct query once: hybrid and dense rankings share the query's vector. */
function rememberingQueries(embedder: Embedder): Embedder {
  const seen = new Map<string, Promise<number[][]>>();
  return {
    id: embedder.id,
    embed: (texts, kind, signal) => {
      if (kind !== 'query') return embedder.embed(texts, kind, signal);
      const key = texts.join('\n');
      let vectors = seen.get(key);
      if (!vectors) seen.set(key, (vectors = embedder.embed(texts, kind)));
      return vectors;
    },
  };
}

/**
 * Indexes a docs folder the way a domain is indexed (embedded store, hidden
 * pages excluded, page vectors when `embedding` is given) and asks every
 * question through the search endpoint's own function with `pageSize: 10`,
 * keyword-only and hybrid; ranks pages by their vector alone; and ranks the
 * same questions with plain BM25 over whole pages. `workDir` receives the index.
 * `language` is the site's, as a domain's language: pages and questions are
 * stemmed as its words (undefined: English).
 */
export async function evaluateCorpus(docsRoot: string, questions: Question[], workDir: string, embedding?: ChunkEmbedding, language?: string): Promise<CorpusRun> {
  const dir = path.join(workDir, 'index');
  const summary = await indexDocs(new EmbeddedDocIndex(dir), DOMAIN, docsRoot, { includeHidden: false, ...(embedding ? { embedding } : {}), ...(language ? { language } : {}) });
  const keyword = new EmbeddedDocIndex(dir);
  const queries = embedding && rememberingQueries(embedding.embedder);
  // A generous budget: the eval measures ranking, not the fallback.
  const hybrid = queries && new EmbeddedDocIndex(dir, new QueryEmbedder(queries, 120_000));
  const pageVectors = embedding ? await pageVectorsOf(path.join(dir, `${DOMAIN}.json`)) : [];
  const bm25 = new Bm25PageIndex(await readWholePages(docsRoot));
  const domain = { id: DOMAIN, ...(language ? { language } : {}) };
  const outcomes: QuestionOutcome[] = [];
  for (const question of questions) {
    const body = v.parse(SearchBody, { query: question.q, pageSize: PAGE_SIZE });
    const answer = (ranked: string[]): EngineAnswer => {
      const pages = rankedPages(ranked);
      return { rank: firstRelevantRank(pages, question.pages, PAGE_SIZE), pages };
    };
    const answers: QuestionOutcome['answers'] = {
      keyword: answer((await searchDomain(keyword, domain, body)).map((h) => h.path)),
      bm25: answer(bm25.search(question.q, PAGE_SIZE).map((r) => r.path)),
    };
    if (hybrid && queries) {
      answers.hybrid = answer((await searchDomain(hybrid, domain, body)).map((h) => h.path));
      const [vector] = await queries.embed([question.q], 'query');
      answers.dense = answer(rankByVector(pageVectors, vector!));
    }
    outcomes.push({ question, answers });
  }
  await keyword.close();
  await hybrid?.close();
  return {
    quireIndex: {
      pages: summary.pages,
      chunks: summary.chunks,
      vectors: summary.vectors,
      broken: summary.broken.map((b) => `${b.path}: ${b.reason}`),
      seconds: summary.seconds,
    },
    baselinePages: bm25.size,
    embedder: embedding?.embedder.id,
    outcomes,
  };
}

/** Every page's vector as the store keeps it (on its first chunk). */
async function pageVectorsOf(file: string): Promise<Array<{ path: string; vector: number[] }>> {
  const { snapshot } = await loadSnapshot(file);
  return snapshot.chunks.flatMap((c) => (c.vector ? [{ path: c.path, vector: c.vector }] : []));
}

function rankByVector(pages: Array<{ path: string; vector: number[] }>, query: number[]): string[] {
  return pages
    .map(({ path: page, vector }) => ({ page, score: cosine(query, vector) }))
    .sort((a, b) => b.score - a.score)
    .slice(0, PAGE_SIZE)
    .map((r) => r.page);
}

export type EngineScores = Partial<Record<Engine, Scores>>;

export interface SplitScores {
  split: Split;
  scores: EngineScores;
}

/** Every engine's scores on each split. */
export function scoreSplits(outcomes: QuestionOutcome[]): SplitScores[] {
  return SPLITS.map((split) => {
    const mine = outcomes.filter((o) => o.question.split === split);
    const scores: EngineScores = {};
    for (const engine of ENGINES) {
      const ranks = mine.flatMap((o) => (o.answers[engine] ? [o.answers[engine].rank] : []));
      if (ranks.length > 0) scores[engine] = scoreRanks(ranks);
    }
    return { split, scores };
  });
}
