export { searchRouter, type SearchDeps } from './router.js';
export { searchDomain } from './search-domain.js';
export { SearchBody } from './schema.js';
