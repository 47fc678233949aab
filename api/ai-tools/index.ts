export { answerFromDocs, type DocsAnswer, type DocsAnswerDeps, type DocsQuestion } from './docs-answer.js';
export { citationLinker, linkCitations, numberedCitations, type CitationLinker, type NumberedCitation } from './citation-links.js';
export { defaultAnswerer } from './default-answerer.js';
export { findOwnDomain, pagePathFrom, pageUrl } from './own-domain.js';
