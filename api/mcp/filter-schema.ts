import type { SearchFilter } from '../../core/retrieval/index.js';

const text = (description: string) => ({ type: 'string', minLength: 1, maxLength: 100, description });

/** The `filter` argument of `search` and `ask`: the search endpoint's filter, described for a model. */
export const FILTER_SCHEMA = {
  type: 'object',
  description: 'Optional: narrow the documentation to one version or language, or include pages of access groups.',
  properties: {
    version: text('A version of the docs, e.g. "v2". Pages without a version match every version.'),
    language: text('A language code, e.g. "en" or "fr". Pages without a language match every language.'),
    tag: text('Only pages with this tag.'),
    groups: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: 100 },
      maxItems: 50,
      description: 'Access groups the reader belongs to. Pages restricted to groups are found only by members.',
    },
  },
  additionalProperties: false,
};

export type FilterArgument = SearchFilter;
