export { analyticsRouter } from './router.js';
export { recorderOf } from './recorder-of.js';
export { callerKind } from './caller-kind.js';
export { gapPrompt } from './gap-prompt.js';
