import type { AnalyticsRecorder } from '../../core/analytics/index.js';
import type { ApiServices } from '../services.js';

/** The process's analytics recorder, built with the services: every router of an app writes through its one queue. */
export function recorderOf(services: Pick<ApiServices, 'analytics'>): AnalyticsRecorder {
  return services.analytics;
}
