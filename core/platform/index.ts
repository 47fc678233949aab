export { openPlatform, type Platform, type PlatformOptions, type WorkerPlatform } from './platform.js';
export { redisClient, type ChatModel, type Embeddings, type RedisLink } from './engines.js';
export { openDatabasePlatform, type DatabasePlatform } from './database-platform.js';
