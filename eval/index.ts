export { Bm25PageIndex, simpleTokens, K1, B, type RankedPage } from './bm25.js';
export { readWholePages, type WholePage } from './corpus-pages.js';
export { evaluateCorpus, scoreSplits, PAGE_SIZE, type CorpusRun, type EngineAnswer, type QuestionOutcome, type SplitScores } from './evaluate.js';
export { firstRelevantRank, rankedPages, scoreRanks, type Scores } from './metrics.js';
export { readQuestions, splitOf, type Question, type Split } from './questions.js';
export { formatRun } from './report.js';
