export * from './types.js';
export { AnalyticsRecorder, type RecorderOptions, type RecorderStats } from './recorder.js';
export { createAnalyticsStore } from './analytics-store.js';
export { coverageGaps, gapIdOf, SAME_TOPIC, type CoverageGap, type GapExample } from './gaps.js';
export { questionTerms, stem } from './question-terms.js';
export { decodeListCursor, encodeListCursor, InvalidAnalyticsCursorError } from './cursor.js';
export { VisitorHasher } from './visitor-hash.js';
export { dayOf } from './page-views.js';
export { READER_QUOTES_BEGIN, READER_QUOTES_END, readerQuoteBlock, withoutReaderQuotes } from './reader-quotes.js';
