import { AsyncLocalStorage } from 'node:async_hooks';
import { context, createContextKey, isSpanContextValid, trace, type Context } from '@opentelemetry/api';

type Fields = () => Record<string, unknown>;

const FIELDS = createContextKey('quire log fields');
const bound = new AsyncLocalStorage<Fields>();
/** True once tracing has registered its context manager: the fields then travel in the trace context. */
let inTraceContext = false;

/**
 * Called by `startTracing` once its context manager is registered: from then on the log fields
 * ride in the trace context, so one async store carries both (each store costs every promise).
 */
export function carryLogFieldsInTraceContext(): void {
  inTraceContext = true;
}

function boundFields(): Fields | undefined {
  return inTraceContext ? (context.active().getValue(FIELDS) as Fields | undefined) : bound.getStore();
}

/**
 * Runs `work` with fields every log line inside it carries (request id, organisation, job and
 * workflow ids). `read` is called per line, so fields learnt later (the organisation, once the
 * key is checked) appear from then on. Nested calls add to the outer fields. `within` is the trace
 * context to run in (the active one by default), entered in the same step as the fields.
 */
export function withLogFields<T>(read: Fields, work: () => T, within?: Context): T {
  const outer = boundFields();
  const fields = outer ? () => ({ ...outer(), ...read() }) : read;
  if (!inTraceContext) return bound.run(fields, work);
  return context.with((within ?? context.active()).setValue(FIELDS, fields), work);
}

/** Pino's mixin: the bound fields, and the active span's trace and span ids when a trace exists. */
export function logMixin(): Record<string, unknown> {
  if (!inTraceContext) return bound.getStore()?.() ?? {};
  const active = context.active();
  const fields = (active.getValue(FIELDS) as Fields | undefined)?.() ?? {};
  const span = trace.getSpan(active)?.spanContext();
  return span && isSpanContextValid(span) ? { ...fields, trace_id: span.traceId, span_id: span.spanId } : fields;
}
