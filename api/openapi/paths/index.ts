import type { PathItems } from '../types.js';
import { healthPaths } from './health.js';

/** Every feature's paths; each feature adds its own file and one line here. */
export const PATHS: PathItems[] = [healthPaths];
