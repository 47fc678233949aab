export { threadsRouter } from './router.js';
