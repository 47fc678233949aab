import type { Platform } from '../core/platform/index.js';
import { configuredAnswering, createAnswerService } from './assistant/index.js';
import type { ApiServices } from './services.js';

/** The API's services over a platform: its engines and stores, and the answer service over them. Opens nothing. */
export function apiServices(platform: Platform): ApiServices {
  const { config, logger, metrics } = platform;
  const answering = configuredAnswering(platform.model, config.assistant);
  const answers = createAnswerService({
    docIndex: platform.docIndex,
    threads: platform.threads,
    completions: platform.completions,
    recorder: platform.analytics,
    answerer: answering.answerer,
    metrics: metrics.assistant,
    rewriter: answering.rewriter,
    promptTokens: config.assistant.promptTokens,
    searchTimeoutMs: config.assistant.searchTimeoutMs,
    logger,
  });
  return { ...platform, answers };
}
