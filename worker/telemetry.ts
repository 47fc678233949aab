import { context, isSpanContextValid, trace, type SpanContext } from '@opentelemetry/api';
import type {
  ActivityExecuteInput,
  ActivityInboundCallsInterceptor,
  ActivityOutboundCallsInterceptor,
  GetLogAttributesInput,
  InjectedSinks,
  Next,
  WorkerInterceptors,
} from '@temporalio/worker';
import type { Context as ActivityContext } from '@temporalio/activity';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/worker/index.js';
import type { OpenTelemetryWorkflowExporter } from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import { withLogFields, type Tracing } from '../core/telemetry/index.js';

/**
 * The workflow-side tracing interceptors, bundled with the workflows (a prebuilt bundle ignores
 * the worker's `workflowModules`): workflow and activity-scheduling spans, trace ids in workflow logs.
 */
export const WORKFLOW_TRACING_MODULE = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** The job an activity works for, when its input names one (agent turns, pull requests, job records). */
function jobIdOf(args: unknown[]): string | undefined {
  const first = args[0];
  return typeof first === 'object' && first !== null && 'jobId' in first && typeof first.jobId === 'string' ? first.jobId : undefined;
}

/** Binds the workflow id, activity type and job id to every log line the activity writes. */
class ActivityLogFields implements ActivityInboundCallsInterceptor {
  constructor(private readonly ctx: ActivityContext) {}

  execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const { workflowExecution, activityType } = this.ctx.info;
    const jobId = jobIdOf(input.args);
    const workflowId = workflowExecution?.workflowId;
    return withLogFields(() => ({ ...(workflowId ? { workflowId } : {}), activityType, ...(jobId ? { jobId } : {}) }), () => next(input));
  }
}

/**
 * Keeps the activity's span for the SDK's own lines written after it ended: the SDK logs
 * "Activity failed" (and "completed") once the tracing interceptor's span has closed, where the
 * span-reading outbound interceptor finds no trace. Placed inside the tracing interceptor, it
 * notes the span its execution runs in, and gives that span's ids to lines that have none.
 */
export class ActivitySpanForLogs implements ActivityInboundCallsInterceptor, ActivityOutboundCallsInterceptor {
  private span: SpanContext | undefined;

  execute(input: ActivityExecuteInput, next: Next<ActivityInboundCallsInterceptor, 'execute'>): Promise<unknown> {
    const span = trace.getSpan(context.active())?.spanContext();
    if (span && isSpanContextValid(span)) this.span = span;
    return next(input);
  }

  getLogAttributes(input: GetLogAttributesInput, next: Next<ActivityOutboundCallsInterceptor, 'getLogAttributes'>): Record<string, unknown> {
    const attributes = next(input);
    if (attributes.trace_id !== undefined || !this.span) return attributes;
    return { ...attributes, trace_id: this.span.traceId, span_id: this.span.spanId };
  }
}

/**
 * What the worker adds for telemetry: activity spans continuing the workflow's trace, log fields,
 * and the sink through which the sandboxed workflows export their spans (dropped when tracing is off).
 */
export function workerTelemetry(tracing: Tracing): { interceptors: WorkerInterceptors; sinks: InjectedSinks<{ exporter: OpenTelemetryWorkflowExporter }> } {
  return {
    interceptors: {
      activity: [
        (ctx) => ({ inbound: new ActivityLogFields(ctx) }),
        (ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx), outbound: new OpenTelemetryActivityOutboundInterceptor(ctx) }),
        () => {
          const spanForLogs = new ActivitySpanForLogs();
          return { inbound: spanForLogs, outbound: spanForLogs };
        },
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.processor, tracing.resource) },
  };
}
