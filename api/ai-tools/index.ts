export { findOwnDomain, pagePathFrom, pageUrl } from './own-domain.js';
