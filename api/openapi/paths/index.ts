import type { PathItems } from '../types.js';
import { adminPaths } from './admin.js';
import { agentPaths } from './agent.js';
import { analyticsPaths } from './analytics.js';
import { agentV1Paths } from './agent-v1.js';
import { agentEventPaths } from './agent-events.js';
import { assistantPaths } from './assistant.js';
import { automationsPaths } from './automations.js';
import { browserPaths } from './browser.js';
import { healthPaths } from './health.js';
import { llmsPaths } from './llms.js';
import { mcpPaths } from './mcp.js';
import { openAiCompatPaths } from './openai-compat.js';
import { openApiPaths } from './openapi.js';
import { pullsPaths } from './pulls.js';
import { searchPaths } from './search.js';
import { threadsPaths } from './threads.js';

/** Every feature's paths; each feature adds its own file and one line here. */
export const PATHS: PathItems[] = [
  healthPaths,
  openApiPaths,
  agentPaths,
  agentV1Paths,
  automationsPaths,
  agentEventPaths,
  assistantPaths,
  browserPaths,
  searchPaths,
  threadsPaths,
  analyticsPaths,
  pullsPaths,
  mcpPaths,
  openAiCompatPaths,
  llmsPaths,
  adminPaths,
];
