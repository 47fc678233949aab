export { searchRouter } from './router.js';
export { searchDomain } from './search-domain.js';
export { SearchBody } from './schema.js';
