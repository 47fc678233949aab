import * as v from 'valibot';

const filterField = v.pipe(v.string(), v.minLength(1), v.maxLength(100));

export const SearchFilterBody = v.strictObject({
  version: v.optional(filterField),
  language: v.optional(filterField),
  tag: v.optional(filterField),
  groups: v.optional(v.pipe(v.array(filterField), v.maxLength(50))),
});

export const SearchBody = v.object({
  query: v.pipe(v.string('must be a string'), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(2000)),
  pageSize: v.optional(
    v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be 1–50'), v.maxValue(50, 'must be 1–50')),
    10,
  ),
  scoreThreshold: v.optional(v.pipe(v.number('must be a number'), v.minValue(0, 'must be 0–1'), v.maxValue(1, 'must be 0–1'))),
  filter: v.optional(SearchFilterBody),
});

export const PageBody = v.object({
  path: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(500)),
  groups: v.optional(v.pipe(v.array(filterField), v.maxLength(50))),
});
