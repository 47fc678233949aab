import { secondsSince, type ModelMetrics } from '../telemetry/index.js';
import type { ModelPort } from './model-port.js';

/** The same port, counting each request's duration and the tokens the provider reported, by model. */
export function meteredModelPort(port: ModelPort, metrics: ModelMetrics): ModelPort {
  return {
    async *streamChat(input) {
      const started = performance.now();
      try {
        for await (const batch of port.streamChat(input)) {
          if (batch.usage) {
            metrics.tokens(input.model, 'input', batch.usage.promptTokens);
            metrics.tokens(input.model, 'output', batch.usage.completionTokens);
          }
          yield batch;
        }
      } finally {
        metrics.observeRequest('stream', secondsSince(started));
      }
    },
    async chat(input) {
      const started = performance.now();
      try {
        const completion = await port.chat(input);
        metrics.tokens(input.model, 'input', completion.usage?.prompt_tokens ?? 0);
        metrics.tokens(input.model, 'output', completion.usage?.completion_tokens ?? 0);
        return completion;
      } finally {
        metrics.observeRequest('chat', secondsSince(started));
      }
    },
    async embed(input) {
      const started = performance.now();
      try {
        return await port.embed(input);
      } finally {
        metrics.observeRequest('embed', secondsSince(started));
      }
    },
    close: () => port.close(),
  };
}
