import type { PageMarkers } from './indexed.js';
import type { SearchFilter } from './types.js';

/**
 * A language tag in BCP 47's canonical case (`pt-br` → `pt-BR`, `ZH-hant` → `zh-Hant`, `en_US` →
 * `en-US`): tags are case-insensitive, so pages and filters are both stored and compared so. A value
 * that is no tag is kept as written.
 */
export function canonicalLanguage(tag: string): string {
  try {
    return Intl.getCanonicalLocales(tag.trim().replace(/_/g, '-'))[0] ?? tag;
  } catch {
    return tag;
  }
}

/** A search filter with its language in canonical case (see `canonicalLanguage`); the same filter when it has none. */
export function canonicalFilter(filter: SearchFilter | undefined): SearchFilter | undefined {
  return filter?.language ? { ...filter, language: canonicalLanguage(filter.language) } : filter;
}

/**
 * Whether a chunk or page passes a filter. A page without a version or
 * language belongs to every version or language; a tag filter wants the tag;
 * access groups hide a page from readers who share none of them.
 */
export function matchesFilter(markers: PageMarkers, filter: SearchFilter | undefined): boolean {
  if (filter?.version && markers.version && markers.version !== filter.version) return false;
  if (filter?.language && markers.language && markers.language !== filter.language) return false;
  if (filter?.tag && markers.tag !== filter.tag) return false;
  return visibleTo(markers.groups, filter?.groups);
}

/** A page with access groups is visible only to a reader who shares one of them. */
export function visibleTo(pageGroups: string[], readerGroups: string[] | undefined): boolean {
  if (pageGroups.length === 0) return true;
  return (readerGroups ?? []).some((g) => pageGroups.includes(g));
}
