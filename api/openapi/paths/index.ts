import type { PathItems } from '../types.js';
import { assistantPaths } from './assistant.js';
import { browserPaths } from './browser.js';
import { healthPaths } from './health.js';
import { llmsPaths } from './llms.js';
import { mcpPaths } from './mcp.js';
import { openAiCompatPaths } from './openai-compat.js';
import { pullsPaths } from './pulls.js';

/** Every feature's paths; each feature adds its own file and one line here. */
export const PATHS: PathItems[] = [healthPaths, assistantPaths, browserPaths, pullsPaths, mcpPaths, openAiCompatPaths, llmsPaths];
