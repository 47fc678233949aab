export { createModelPort, type ModelPort } from './model-port.js';
export { meteredModelPort } from './metered-model-port.js';
export {
  ModelError,
  ModelStreamError,
  PermanentModelError,
  RateLimitedModelError,
  TransientModelError,
  modelErrorForStatus,
  toModelError,
} from './errors.js';
export type { ChatCompletion, ChatMessage, ChatStreamBatch, ChatTool, ModelUsage, StreamedToolCall } from './types.js';
