export { proxyDispatcher } from './proxy-dispatcher.js';
export { retryAfterMs } from './retry-after.js';
export { hostOf, isPrivateAddress, privateTargetProblem } from './private-targets.js';
