export { assistantRouter, type AssistantDeps } from './router.js';
export type { Citation, AnswerWriter } from './answer-writer.js';
export { V1Body, V2Body } from './schema.js';
// What the other doors to the docs (MCP, the OpenAI-compatible endpoint) reuse: one retrieval, one prompt, one answerer.
export type { AnswerInput, AnswerRun, Answerer, AnswerTrace } from './answerer.js';
export { recordingAnswerer, unansweredReason, categoryOf } from './recording-answerer.js';
export { meteredAnswerer } from './metered-answerer.js';
export type { Usage } from './answer-writer.js';
export { citationsFor, passageUrl } from './citations.js';
export { retrievalQuery, type Conversation, type Turn } from './conversation.js';
export { extractiveAnswerer } from './extractive-answerer.js';
export { assistantLimits } from './limits.js';
export { modelAnswerer, ModelFailedError } from './model-answerer.js';
export { buildPrompt, CHUNKS_PER_PAGE, type AssistantPrompt } from './prompt.js';
