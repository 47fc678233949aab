export { proxyDispatcher, targetDispatcher } from './proxy-dispatcher.js';
export { retryAfterMs } from './retry-after.js';
export { checkTarget, hostOf, isPrivateAddress, PrivateTargetError, privateTargetProblem, publicOnlyLookup, type CheckedTarget, type Resolver } from './private-targets.js';
