export { searchRouter, type SearchDeps } from './router.js';
