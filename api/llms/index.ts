export { llmsRouter } from './router.js';
export { LlmsCache } from './llms-cache.js';
