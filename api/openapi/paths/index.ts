import type { PathItems } from '../types.js';
import { assistantPaths } from './assistant.js';
import { browserPaths } from './browser.js';
import { healthPaths } from './health.js';
import { pullsPaths } from './pulls.js';

/** Every feature's paths; each feature adds its own file and one line here. */
export const PATHS: PathItems[] = [healthPaths, assistantPaths, browserPaths, pullsPaths];
