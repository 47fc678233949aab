import type { ClientInterceptors } from '@temporalio/client';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry/lib/client/index.js';

/**
 * What every Temporal Client of Quire carries: starts, signals and updates are spans whose
 * context travels in the workflow's headers, so the workflow and its activities join the
 * caller's trace. Without tracing started, the spans are no-ops.
 */
export function temporalClientInterceptors(): ClientInterceptors {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
