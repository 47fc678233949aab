export { analyticsRouter } from './router.js';
export { recorderOf } from './recorder-of.js';
export { callerKind } from './caller-kind.js';
export { gapPrompt } from './gap-prompt.js';
export { recordAiView } from './ai-views.js';
export { PLAIN_TEXT_JSON_PATH } from './page-view-routes.js';
