export { llmsRouter, type LlmsDeps } from './router.js';
export { LlmsCache } from './llms-cache.js';
