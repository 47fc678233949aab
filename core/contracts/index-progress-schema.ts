/**
 * An indexing run's progress, declared once: the type the workflow's progress query answers
 * (`IndexProgress` in index-domain.ts, as `v.InferOutput`) and, named `IndexProgress`, the
 * progress of the index run routes of the served OpenAPI document. Workflow code must not import
 * this file for values (the sandbox would bundle valibot), and the contracts' index.ts does not
 * export it: index-domain.ts takes only its type.
 */
import * as v from 'valibot';

const count = v.pipe(v.number(), v.integer());

export const IndexProgressSchema = v.object({
  phase: v.picklist(['checkout', 'indexing', 'cleanup', 'done']),
  /** Page files of finished batches. */
  done: count,
  total: count,
  /** Chunks of finished batches that got a vector (0 when keyword only); the running batch heartbeats its own. */
  embedded: count,
});
