import { inEvent, secondsSince, type RetrievalMetrics } from '../telemetry/index.js';
import type { DocIndex } from './types.js';

/**
 * The same index, each search timed, and traced as an event of the active span (the search is
 * in-process work; the embeddings and Qdrant calls it makes keep spans of their own). The query
 * text stays out of the trace.
 */
export function observedDocIndex<T extends DocIndex>(index: T, metrics: RetrievalMetrics): T {
  const search: DocIndex['search'] = (domainId, query) =>
    inEvent('retrieval search', { 'quire.retrieval.page_size': query.pageSize }, async () => {
      const started = performance.now();
      try {
        return await index.search(domainId, query);
      } finally {
        metrics.observeSearch(secondsSince(started));
      }
    });
  // Every other method is the index's own, called on the index itself.
  return new Proxy(index, { get: (target, name) => (name === 'search' ? search : bindOwn(target, Reflect.get(target, name))) });
}

function bindOwn(target: object, value: unknown): unknown {
  return typeof value === 'function' ? value.bind(target) : value;
}
