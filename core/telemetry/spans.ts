import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

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

/** Marks a span failed with the error's class name (never its message). */
export function markFailed(span: Span, err: unknown): void {
  const type = err instanceof Error ? err.name : 'Error';
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

export { SpanKind };
