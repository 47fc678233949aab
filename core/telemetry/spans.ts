import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/** The tracer of Quire's own spans; a no-op until tracing is started (then it follows the registered provider). */
export const tracer = trace.getTracer('quire');

/**
 * Runs `work` inside a span named `name`. A failure marks the span with the error's class name
 * only: messages may quote prompts, file contents or URLs, and none of that belongs in a span.
 */
export function inSpan<T>(name: string, attributes: Attributes, work: (span: Span) => Promise<T>, kind: SpanKind = SpanKind.INTERNAL): Promise<T> {
  return tracer.startActiveSpan(name, { attributes, kind }, async (span) => {
    try {
      return await work(span);
    } catch (err) {
      markFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Runs `work`, too short to be worth a span of its own (an embedded index's search: tens of
 * microseconds), and records it as an event `name` on the active span, at the time it started (a `performance.now()` reading, which the SDK dates),
 * with its attributes, its duration (`quire.duration_ms`) and, when it failed, the error's class
 * name (`error.type`). A span costs an id, a sampling decision, a context switch and an export;
 * an event is one entry in its parent's list. Nothing is recorded outside a recorded span.
 */
export function inEvent<T>(name: string, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  const parent = trace.getActiveSpan();
  if (!parent?.isRecording()) return work();
  const started = performance.now();
  const record = (failure?: string) => {
    const duration = Math.round((performance.now() - started) * 1000) / 1000;
    parent.addEvent(name, failure ? { ...attributes, 'quire.duration_ms': duration, 'error.type': failure } : { ...attributes, 'quire.duration_ms': duration }, started);
  };
  const failed = (err: unknown): never => {
    record(err instanceof Error ? err.name : 'Error');
    throw err;
  };
  // Not an async function: no promise of its own around the work's.
  try {
    return work().then((value) => {
      record();
      return value;
    }, failed);
  } catch (err) {
    return failed(err);
  }
}

/**
 * Database statements for the trace: one that took at least `minMs` becomes a span `db <operation>`
 * (`db.system`, `db.operation.name`; never its SQL or values) under the span it ran in, dated after
 * the fact from its duration. Faster ones cost one comparison: every statement is in the
 * `quire_db_query_duration_seconds` histogram, and a span per statement of a few tens of
 * microseconds would cost more than the statement. Called in the statement's own async context.
 */
export function slowStatementSpans(system: 'sqlite' | 'postgresql', minMs: number): (operation: string, seconds: number, failed: boolean) => void {
  return (operation, seconds, failed) => {
    const ms = seconds * 1000;
    if (ms < minMs) return;
    const active = context.active();
    if (!trace.getSpan(active)?.isRecording()) return;
    const end = performance.now();
    const span = tracer.startSpan(`db ${operation}`, { kind: SpanKind.CLIENT, startTime: end - ms, attributes: { 'db.system': system, 'db.operation.name': operation } }, active);
    if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(end);
  };
}

/** Marks a span failed with the error's class name (never its message). */
export function markFailed(span: Span, err: unknown): void {
  const type = err instanceof Error ? err.name : 'Error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

export { SpanKind };
