export { pushHookRouter } from './push-router.js';
