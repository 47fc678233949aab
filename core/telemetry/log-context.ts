import { AsyncLocalStorage } from 'node:async_hooks';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';

type Fields = () => Record<string, unknown>;

const bound = new AsyncLocalStorage<Fields>();

/**
 * Runs `work` with fields every log line inside it carries (request id, organisation, job and
 * workflow ids). `read` is called per line, so fields learnt later (the organisation, once the
 * key is checked) appear from then on. Nested calls add to the outer fields.
 */
export function withLogFields<T>(read: Fields, work: () => T): T {
  const outer = bound.getStore();
  return bound.run(outer ? () => ({ ...outer(), ...read() }) : read, work);
}

/** Pino's mixin: the bound fields, and the active span's trace and span ids when a trace exists. */
export function logMixin(): Record<string, unknown> {
  const fields = bound.getStore()?.() ?? {};
  const span = trace.getSpan(context.active())?.spanContext();
  return span && isSpanContextValid(span) ? { ...fields, trace_id: span.traceId, span_id: span.spanId } : fields;
}
