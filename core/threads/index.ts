export * from './types.js';
export { createThreadStore, type SweepingThreadStore, type ThreadStoreOptions } from './thread-store.js';
export { newThreadKey, threadKeyMatches } from './thread-key.js';
