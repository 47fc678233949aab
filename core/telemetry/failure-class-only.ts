import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, TimedEvent } from '@opentelemetry/sdk-trace-node';

const EXCEPTION = 'exception';
const EXCEPTION_TYPE = 'exception.type';

/** The error class a span's failure names: its first exception event's type, else its `error.type`. */
function failureClass(span: ReadableSpan): string | undefined {
  for (const event of span.events) {
    const type = event.name === EXCEPTION ? event.attributes?.[EXCEPTION_TYPE] : undefined;
    if (typeof type === 'string') return type;
  }
  const type = span.attributes['error.type'];
  return typeof type === 'string' ? type : undefined;
}

/** True when an exception event holds more than the error's class (its message, its stack). */
function saysMore(event: TimedEvent): boolean {
  if (event.name !== EXCEPTION || !event.attributes) return false;
  for (const key in event.attributes) if (key !== EXCEPTION_TYPE) return true;
  return false;
}

function classOnly(event: TimedEvent): TimedEvent {
  if (!saysMore(event)) return event;
  const type = event.attributes?.[EXCEPTION_TYPE];
  return { ...event, attributes: type === undefined ? {} : { [EXCEPTION_TYPE]: type } };
}

/**
 * A span as it may leave the process: a failure named by its error class only. Temporal's
 * OpenTelemetry interceptors record a failed call's, workflow's or activity's exception with its
 * message and stack, and set the span's status message to the error's message; a message can
 * quote a prompt, a file or a URL. Here each exception event keeps `exception.type` alone and the
 * status message becomes the class. A span with nothing to remove is passed on as it is; one with
 * something is passed on as a view of it with those two fields replaced.
 */
export function failureClassOnly(span: ReadableSpan): ReadableSpan {
  const type = failureClass(span);
  const statusSaysMore = span.status.message !== undefined && span.status.message !== type;
  if (!statusSaysMore && !span.events.some(saysMore)) return span;
  const status = type === undefined ? { code: span.status.code } : { code: span.status.code, message: type };
  return Object.create(span, { status: { value: status }, events: { value: span.events.map(classOnly) } }) as ReadableSpan;
}

/** An exporter that hands `inner` every span as `failureClassOnly` leaves it. */
export class FailureClassOnlyExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans.map(failureClassOnly), done);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
