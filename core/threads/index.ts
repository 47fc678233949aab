export * from './types.js';
export { SqliteThreadStore } from './sqlite-store.js';
export { RedisThreadStore } from './redis-store.js';
export { openThreadStore } from './open.js';
export { newThreadKey, threadKeyMatches } from './thread-key.js';
