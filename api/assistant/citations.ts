import type { SearchHit } from '../../core/retrieval/index.js';
import type { Citation } from './answer-writer.js';

/** The public URL of a passage: the domain's site + page path + heading anchor. */
export function passageUrl(baseUrl: string, hit: Pick<SearchHit, 'path' | 'metadata'>): string {
  const base = baseUrl.replace(/\/+$/, '');
  const pagePath = hit.path.startsWith('/') ? hit.path : `/${hit.path}`;
  const anchor = hit.metadata.anchor ? `#${hit.metadata.anchor}` : '';
  return `${base}${pagePath}${anchor}`;
}

/**
 * One citation per passage given to the model, numbered as in the prompt, so
 * `[2]` in the answer is `src_2` in the stream.
 */
export function citationsFor(baseUrl: string, hits: SearchHit[]): Citation[] {
  return hits.map((hit, i) => {
    const heading = hit.metadata.breadcrumb.at(-1);
    const title = heading && heading !== hit.metadata.title ? `${hit.metadata.title} › ${heading}` : hit.metadata.title;
    return { id: `src_${i + 1}`, url: passageUrl(baseUrl, hit), title: title || hit.path, path: hit.path };
  });
}
