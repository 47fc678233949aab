export {
  createMetrics,
  secondsSince,
  type AgentMetrics,
  type AnswerOutcome,
  type AssistantMetrics,
  type DbMetrics,
  type HttpMetrics,
  type IndexMetrics,
  type LimitMetrics,
  type LimitSubject,
  type MetricsOptions,
  type ModelMetrics,
  type QuireMetrics,
  type RetrievalMetrics,
  type TemporalCall,
  type TemporalCallOutcome,
  type TemporalMetrics,
  type WebhookMetrics,
} from './metrics.js';
export { serveMetrics, type MetricsListener } from './metrics-server.js';
export { startTracing, batchDefaults, exporterFromEnv, samplerFromEnv, TracingConfigError, type Tracing } from './tracing.js';
export { inEvent, inSpan, markFailed, slowStatementSpans, tracer, SpanKind } from './spans.js';
export { withLogFields, logMixin } from './log-context.js';
export { failureClassOnly, FailureClassOnlyExporter } from './failure-class-only.js';
