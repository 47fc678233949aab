export { Bm25PageIndex, simpleTokens, K1, B, type RankedPage } from './bm25.js';
export { readWholePages, type WholePage } from './corpus-pages.js';
export { evaluateCorpus, scoreSplits, PAGE_SIZE, ENGINES, ENGINE_NAMES, type CorpusRun, type Engine, type EngineAnswer, type EngineScores, type QuestionOutcome, type SplitScores } from './evaluate.js';
export { firstRelevantRank, rankedPages, scoreRanks, type Scores } from './metrics.js';
export { readQuestions, splitOf, type Question, type Split } from './questions.js';
export { formatRun } from './report.js';
export { figuresOf, readFigures, recordFigures, regressions, FIGURES_FILE, type Figure, type Figures, type SetFigures } from './figures.js';
