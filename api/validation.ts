import * as v from 'valibot';
import { badRequest } from './http-error.js';

/** A required field left out: said as such, not as valibot's "Invalid key: Expected "id" but received undefined". */
function isMissingKey(issue: v.BaseIssue<unknown>): boolean {
  return (issue.type === 'object' || issue.type === 'strict_object' || issue.type === 'loose_object') && issue.received === 'undefined' && (issue.path?.length ?? 0) > 0;
}

/** A field a strict object does not have: said as such, not as valibot's "Invalid key: Expected never but received "tag"". */
function isUnknownKey(issue: v.BaseIssue<unknown>): boolean {
  return issue.type === 'strict_object' && issue.expected === 'never' && (issue.path?.length ?? 0) > 0;
}

/** Parses a request part with its schema; every broken rule becomes a `details` entry. */
export function parseInput<const S extends v.GenericSchema>(schema: S, input: unknown, where = 'body'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  const details = result.issues.map((issue) => ({
    path: issue.path?.map((p) => String(p.key)).join('.') || where,
    message: isMissingKey(issue) ? 'is required' : isUnknownKey(issue) ? 'is not a field here' : issue.message,
  }));
  throw badRequest(`invalid ${where}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}
