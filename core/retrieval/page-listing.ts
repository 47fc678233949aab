import { createHash } from 'node:crypto';
import type { PageListing } from './types.js';

/** The fields of a stored page a listing shows, whichever store kept them. */
export interface ListablePage {
  path: string;
  title: string;
  description?: string | undefined;
  sections?: string[] | undefined;
  groups: string[];
  version?: string | undefined;
  language?: string | undefined;
  content?: string | undefined;
}

/** A stored page as a listing entry, with its Markdown only when asked for. */
export function listingOf(page: ListablePage, withContent: boolean): PageListing {
  return {
    path: page.path,
    title: page.title,
    ...(page.description ? { description: page.description } : {}),
    ...(page.sections?.length ? { sections: page.sections } : {}),
    groups: page.groups,
    ...(page.version ? { version: page.version } : {}),
    ...(page.language ? { language: page.language } : {}),
    ...(withContent ? { content: page.content ?? '' } : {}),
  };
}

export const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * A generation from the page hashes a store holds: any page added, changed or
 * removed changes it, and every replica computes the same one.
 */
export function generationOf(hashes: Map<string, string>): string {
  const digest = createHash('sha256');
  for (const path of [...hashes.keys()].sort()) digest.update(path).update('\0').update(hashes.get(path) ?? '').update('\n');
  return digest.digest('hex').slice(0, 32);
}
