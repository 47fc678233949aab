import * as v from 'valibot';
import { badRequest } from './http-error.js';

/** Parses a request part with its schema; every broken rule becomes a `details` entry. */
export function parseInput<const S extends v.GenericSchema>(schema: S, input: unknown, where = 'body'): v.InferOutput<S> {
  const result = v.safeParse(schema, input, { abortEarly: false });
  if (result.success) return result.output;
  const details = result.issues.map((issue) => ({
    path: issue.path?.map((p) => String(p.key)).join('.') || where,
    message: issue.message,
  }));
  throw badRequest(`invalid ${where}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
}
