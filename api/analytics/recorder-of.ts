import { AnalyticsRecorder } from '../../core/analytics/index.js';
import type { ApiServices } from '../services.js';

const recorders = new WeakMap<ApiServices, AnalyticsRecorder>();

/**
 * The process's analytics recorder: the one the entry point built, else one
 * opened on first use for these services (tests that do not care), so every
 * router of an app writes through one queue.
 */
export function recorderOf(services: ApiServices): AnalyticsRecorder {
  if (services.analytics) return services.analytics;
  let recorder = recorders.get(services);
  if (!recorder) {
    recorder = new AnalyticsRecorder({
      store: services.analyticsStore,
      logger: services.logger,
      retentionDays: services.config.retention.analyticsDays,
    });
    recorder.start();
    recorders.set(services, recorder);
  }
  return recorder;
}
