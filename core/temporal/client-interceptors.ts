import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError, WorkflowUpdateFailedError, type ClientInterceptors, type WorkflowClientInterceptor } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';
import type { TemporalCall, TemporalCallOutcome, TemporalMetrics } from '../telemetry/index.js';

const TIMED_CALLS: readonly TemporalCall[] = ['start', 'startUpdateWithStart', 'startUpdate', 'signal', 'signalWithStart', 'query', 'describe', 'terminate', 'cancel'];

/** A failed call's outcome: Temporal's answers about one workflow apart from Temporal failing. */
function outcomeOf(err: unknown): TemporalCallOutcome {
  if (err instanceof WorkflowNotFoundError) return 'not_found';
  if (err instanceof WorkflowExecutionAlreadyStartedError) return 'already_started';
  if (err instanceof WorkflowUpdateFailedError) return 'rejected';
  return 'error';
}

/**
 * Times every workflow call of the client in `quire_temporal_request_duration_seconds`, by call
 * and outcome: beside the request histogram, it tells an operator whether a slow or failing job
 * route waits on Temporal or on Quire. An update's time includes the worker's handling of it.
 */
export function timedWorkflowCalls(metrics: TemporalMetrics): WorkflowClientInterceptor {
  const timed = (call: TemporalCall) => async (input: unknown, next: (input: unknown) => Promise<unknown>) => {
    const started = performance.now();
    try {
      const result = await next(input);
      metrics.observeCall(call, 'ok', (performance.now() - started) / 1000);
      return result;
    } catch (err) {
      metrics.observeCall(call, outcomeOf(err), (performance.now() - started) / 1000);
      throw err;
    }
  };
  return Object.fromEntries(TIMED_CALLS.map((call) => [call, timed(call)])) as WorkflowClientInterceptor;
}

/**
 * What every Temporal Client of Quire carries: its calls are timed, and starts, signals and
 * updates are spans whose context travels in the workflow's headers, so the workflow and its
 * activities join the caller's trace. Without tracing started, the spans are no-ops.
 */
export function temporalClientInterceptors(metrics: TemporalMetrics): ClientInterceptors {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor(), timedWorkflowCalls(metrics)] };
}
