import path from 'node:path';
import * as v from 'valibot';
import { SearchBody } from '../api/search/schema.js';
import { searchDomain } from '../api/search/search-domain.js';
import { EmbeddedDocIndex, indexDocs } from '../core/retrieval/index.js';
import { Bm25PageIndex } from './bm25.js';
import { readWholePages } from './corpus-pages.js';
import { firstRelevantRank, rankedPages, scoreRanks, type Scores } from './metrics.js';
import type { Question, Split } from './questions.js';

/** What the chat widget asks the search endpoint for. */
export const PAGE_SIZE = 10;
const DOMAIN = 'eval';
const SPLITS: Split[] = ['dev', 'test'];

export interface EngineAnswer {
  /** 1-based rank of the first answering page among the first 10 distinct pages; 0 when absent. */
  rank: number;
  /** Distinct pages in rank order. */
  pages: string[];
}

export interface QuestionOutcome {
  question: Question;
  quire: EngineAnswer;
  bm25: EngineAnswer;
}

export interface CorpusRun {
  /** Pages Quire indexed, chunks, broken pages and indexing seconds. */
  quireIndex: { pages: number; chunks: number; broken: string[]; seconds: number };
  /** Page files the baseline ranks (all of them: it knows no navigation). */
  baselinePages: number;
  outcomes: QuestionOutcome[];
}

/**
 * Indexes a docs folder the way a domain is indexed (keyword-only embedded
 * store, hidden pages excluded) and asks every question through the search
 * endpoint's own function with `pageSize: 10`; ranks the same questions with
 * plain BM25 over whole pages in the same run. `workDir` receives the index.
 */
export async function evaluateCorpus(docsRoot: string, questions: Question[], workDir: string): Promise<CorpusRun> {
  const index = new EmbeddedDocIndex(path.join(workDir, 'index'));
  const summary = await indexDocs(index, DOMAIN, docsRoot, { includeHidden: false });
  const bm25 = new Bm25PageIndex(await readWholePages(docsRoot));
  const outcomes: QuestionOutcome[] = [];
  for (const question of questions) {
    const body = v.parse(SearchBody, { query: question.q, pageSize: PAGE_SIZE });
    const hits = await searchDomain(index, DOMAIN, body);
    const quirePages = rankedPages(hits.map((h) => h.path));
    const bm25Pages = bm25.search(question.q, PAGE_SIZE).map((r) => r.path);
    outcomes.push({
      question,
      quire: { rank: firstRelevantRank(quirePages, question.pages, PAGE_SIZE), pages: quirePages },
      bm25: { rank: firstRelevantRank(bm25Pages, question.pages, PAGE_SIZE), pages: bm25Pages },
    });
  }
  await index.close();
  return {
    quireIndex: { pages: summary.pages, chunks: summary.chunks, broken: summary.broken.map((b) => `${b.path}: ${b.reason}`), seconds: summary.seconds },
    baselinePages: bm25.size,
    outcomes,
  };
}

export interface SplitScores {
  split: Split;
  quire: Scores;
  bm25: Scores;
}

/** Both engines' scores on each split. */
export function scoreSplits(outcomes: QuestionOutcome[]): SplitScores[] {
  return SPLITS.map((split) => {
    const mine = outcomes.filter((o) => o.question.split === split);
    return { split, quire: scoreRanks(mine.map((o) => o.quire.rank)), bm25: scoreRanks(mine.map((o) => o.bm25.rank)) };
  });
}
