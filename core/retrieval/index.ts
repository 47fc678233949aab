export type { DocIndex, PageContent, SearchFilter, SearchHit, SearchQuery } from './types.js';
export type { DocIndexWriter, IndexedChunk, IndexedPage, PageChanges, PageMarkers, WritableDocIndex } from './indexed.js';
export { normalisePagePath } from './indexed.js';
export { openDocIndex } from './open-doc-index.js';
export { EmbeddedDocIndex } from './embedded-store.js';
export { tokenise, termId } from './tokenise.js';
