export * from './types.js';
export { AnalyticsRecorder, type RecorderOptions, type RecorderStats } from './recorder.js';
export { SqliteAnalyticsStore } from './sqlite-analytics-store.js';
export { RedisAnalyticsStore } from './redis-analytics-store.js';
export { openAnalyticsStore } from './open.js';
export { coverageGaps, SAME_TOPIC, type CoverageGap } from './gaps.js';
export { questionTerms, stem } from './question-terms.js';
export { decodeListCursor, encodeListCursor, InvalidAnalyticsCursorError } from './cursor.js';
