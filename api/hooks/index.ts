export { pushHookRouter } from './push-router.js';
export { PUSH_WARNING_INTERVAL_MS, WarningThrottle } from './warning-throttle.js';
