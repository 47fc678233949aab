export { assistantRouter } from './router.js';
export type { Citation, AnswerWriter, Usage } from './answer-writer.js';
export { V1Body, V2Body } from './schema.js';
// The one answer path every door to the docs uses (the assistant routes, MCP, the OpenAI-compatible endpoint).
export { createAnswerService, configuredAnswering, type AnswerService, type AnswerServiceDeps, type AnswerQuestion, type AnswerOptions, type PreparedAnswer } from './answer-service.js';
export type { AnswerInput, AnswerRun, Answerer, AnswerTrace } from './answerer.js';
export { unansweredReason, categoryOf, type CompletionRecord } from './completion-record.js';
export { citationLinker, linkCitations, numberedCitations, type CitationLinker, type NumberedCitation } from './citation-links.js';
export { citationsFor, passageUrl, MAX_SOURCES } from './citations.js';
export { retrievalQuery, type Conversation, type Turn } from './conversation.js';
export { extractiveAnswerer } from './extractive-answerer.js';
export { assistantLimits } from './limits.js';
export { AnswerCutShortError, modelAnswerer, ModelFailedError, publicFailure, type AnswerFailure, type AnswerFailureCode } from './model-answerer.js';
export { buildPrompt, CHUNKS_PER_PAGE, type AssistantPrompt } from './prompt.js';
