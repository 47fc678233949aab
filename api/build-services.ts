import type { Platform } from '../core/platform/index.js';
import { configuredAnswerer, createAnswerService, meteredAnswerer } from './assistant/index.js';
import type { ApiServices } from './services.js';

/** The API's services over a platform: its engines and stores, and the answer service over them. Opens nothing. */
export function apiServices(platform: Platform): ApiServices {
  const { config, logger, metrics } = platform;
  const answerer = meteredAnswerer(configuredAnswerer(platform.model), metrics.assistant);
  const answers = createAnswerService({ docIndex: platform.docIndex, threads: platform.threads, recorder: platform.analytics, answerer, promptTokens: config.assistant.promptTokens, logger });
  return { ...platform, answers };
}
