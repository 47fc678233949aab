export { openAiCompatRouter } from './router.js';
export { MODEL_ID } from './wire-format.js';
