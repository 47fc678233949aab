export { assistantRouter, type AssistantDeps } from './router.js';
export type { Citation, AnswerWriter } from './answer-writer.js';
export { V1Body, V2Body } from './schema.js';
