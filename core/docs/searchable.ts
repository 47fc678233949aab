import { flagField, type Frontmatter } from './frontmatter.js';
import type { NavEntry, SiteNavigation } from './navigation.js';

/**
 * Which pages a domain indexes: `site` follows the site's own rules (what
 * Mintlify makes searchable); `everything` takes every page file, whatever
 * the site says (the domain option `includeHidden`).
 */
export type IndexScope = 'site' | 'everything';

export interface Searchability {
  searchable: boolean;
  /** Why, in the site's own terms (`noindex`, `hidden tab or group`, …). */
  reason: string;
}

/**
 * Mintlify's rules for what its search and assistant see, in order: explicit
 * opt-outs always win (the page's `noindex` or `searchable: false`, or
 * `searchable: false` on its tab or group); `seo.indexing: "all"` takes every
 * other page; otherwise a page must be in the navigation, not under a hidden
 * version/language/product/anchor/dropdown/menu item, not `hidden: true`
 * itself, and not under a hidden tab or group unless the nearest tab or group
 * that sets `searchable` says `true`.
 */
export function searchability(
  frontmatter: Frontmatter,
  site: SiteNavigation | undefined,
  entry: NavEntry | undefined,
  scope: IndexScope,
): Searchability {
  if (scope === 'everything') return { searchable: true, reason: 'the domain indexes every page' };
  if (flagField(frontmatter, 'noindex') === true) return { searchable: false, reason: 'noindex' };
  if (flagField(frontmatter, 'searchable') === false) return { searchable: false, reason: 'searchable: false' };
  if (entry?.searchable === false) return { searchable: false, reason: 'searchable: false on its tab or group' };
  const hiddenPage = flagField(frontmatter, 'hidden') === true;
  if (site?.indexing === 'all') return { searchable: true, reason: 'seo.indexing: all' };
  if (!site) return hiddenPage ? { searchable: false, reason: 'hidden: true' } : { searchable: true, reason: 'no navigation file' };
  if (!entry) return { searchable: false, reason: `not in ${site.file} navigation` };
  if (entry.locked) return { searchable: false, reason: 'under a hidden navigation section' };
  if (hiddenPage) return { searchable: false, reason: 'hidden: true' };
  if (entry.hidden && entry.searchable !== true) return { searchable: false, reason: 'under a hidden tab or group' };
  return { searchable: true, reason: entry.hidden ? 'searchable: true on its hidden tab or group' : 'in the navigation' };
}
