import { healthRouter } from './health.js';
import type { Feature } from './services.js';

/** Every router the API serves, in order. Each feature folder adds its own line. */
export const FEATURES: Feature[] = [healthRouter];
