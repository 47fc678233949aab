export { safeMarkdown, isSafeLink } from './safe-markdown.js';
