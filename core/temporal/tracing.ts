import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ClientInterceptors, Next, WorkflowClientInterceptor, WorkflowStartInput, WorkflowStartOutput } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import { RUN_ID_ATTR_KEY, TRACE_HEADER, WORKFLOW_ID_ATTR_KEY } from '@temporalio/interceptors-opentelemetry/lib/instrumentation.js';
import { SPAN_DELIMITER, SpanName } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import { markFailed } from '../telemetry/index.js';

/**
 * Temporal's client interceptor with a leaner workflow start, the call every job create makes: the
 * same `StartWorkflow:<type>` span with the workflow and run ids, and the same trace context in the
 * `_tracer-data` header the workflow interceptors read, but the span is not made the active one
 * around the call (the header is written from its context directly: nothing inside the call opens
 * spans), which saves a context switch and two promise wrappers per start. A failed start is named
 * by its error class only, as every Quire span is. Signals, updates and the rest are the library's.
 */
class WorkflowClientTracing extends OpenTelemetryWorkflowClientInterceptor {
  override start(input: WorkflowStartInput, next: Next<WorkflowClientInterceptor, 'start'>): Promise<string> {
    return this.traceStart(input, (headers) => next({ ...input, headers }), (runId) => runId);
  }

  override startWithDetails(input: WorkflowStartInput, next: Next<WorkflowClientInterceptor, 'startWithDetails'>): Promise<WorkflowStartOutput> {
    return this.traceStart(input, (headers) => next({ ...input, headers }), (output) => output.runId);
  }

  private async traceStart<T>(input: WorkflowStartInput, run: (headers: WorkflowStartInput['headers']) => Promise<T>, runIdOf: (output: T) => string): Promise<T> {
    const parent = context.active();
    const span = this.tracer.startSpan(`${SpanName.WORKFLOW_START}${SPAN_DELIMITER}${input.workflowType}`, undefined, parent);
    const carrier: Record<string, string> = {};
    propagation.inject(trace.setSpan(parent, span), carrier);
    try {
      const output = await run({ ...input.headers, [TRACE_HEADER]: defaultPayloadConverter.toPayload(carrier) });
      if (span.isRecording()) {
        span.setAttributes({ [WORKFLOW_ID_ATTR_KEY]: input.options.workflowId, [RUN_ID_ATTR_KEY]: runIdOf(output) });
        span.setStatus({ code: SpanStatusCode.OK });
      }
      return output;
    } catch (err) {
      markFailed(span, err);
      throw err;
    } finally {
      span.end();
    }
  }
}

/**
 * What every Temporal Client of Quire carries: starts, signals and updates are spans whose
 * context travels in the workflow's headers, so the workflow and its activities join the
 * caller's trace. Without tracing started, the spans are no-ops.
 */
export function temporalClientInterceptors(): ClientInterceptors {
  return { workflow: [new WorkflowClientTracing()] };
}
