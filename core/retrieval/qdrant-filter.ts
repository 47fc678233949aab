import type { Schemas } from '@qdrant/js-client-rest';
import type { SearchFilter } from './types.js';

type Filter = Schemas['Filter'];
type Condition = NonNullable<Filter['must']> extends (infer C)[] | infer C ? C : never;

const is = (key: string, value: string): Condition => ({ key, match: { value } });
/** The field is absent or equals the value: a page without a version belongs to every version. */
const absentOr = (key: string, value: string): Condition => ({ should: [{ is_empty: { key } }, is(key, value)] });

/** The Qdrant filter of one domain's chunks (or pages) under a search filter, as `matchesFilter` reads it. */
export function qdrantFilter(domainId: string, kind: 'chunk' | 'page', filter?: SearchFilter): Filter {
  const must: Condition[] = [is('domain', domainId), is('kind', kind)];
  if (filter?.version) must.push(absentOr('version', filter.version));
  if (filter?.language) must.push(absentOr('language', filter.language));
  if (filter?.tag) must.push(is('tag', filter.tag));
  const groups = filter?.groups ?? [];
  must.push(
    groups.length > 0
      ? { should: [{ is_empty: { key: 'groups' } }, { key: 'groups', match: { any: groups } }] }
      : { is_empty: { key: 'groups' } },
  );
  return { must };
}
