export * from './types.js';
export { ThreadExchangeSchema, ThreadTranscriptSchema } from './thread-schema.js';
export { createThreadStore, type SweepingThreadStore, type ThreadStoreOptions } from './thread-store.js';
export { newThreadKey, threadKeyMatches } from './thread-key.js';
