// Imported first by the API's entry point: tracing is registered before any code it traces loads.
import { startTracing } from '../core/telemetry/tracing.js';

export const tracing = startTracing('quire-api');
