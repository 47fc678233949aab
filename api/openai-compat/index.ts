export { openAiCompatRouter, type OpenAiCompatDeps } from './router.js';
export { MODEL_ID } from './wire-format.js';
