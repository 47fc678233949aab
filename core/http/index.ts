export { proxyDispatcher } from './proxy-dispatcher.js';
export { retryAfterMs } from './retry-after.js';
