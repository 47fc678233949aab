import type { PathItems } from '../types.js';
import { agentOperations } from '../../agent/operations.js';
import { analyticsOperations } from '../../analytics/operations.js';
import { pathItems } from '../operation.js';
import { adminPaths } from './admin.js';
import { agentV1Paths } from './agent-v1.js';
import { assistantPaths } from './assistant.js';
import { automationsOperations } from '../../automations/operations.js';
import { browserPaths } from './browser.js';
import { consoleOperations } from '../../console/operations.js';
import { healthOperations } from '../../health-operations.js';
import { llmsPaths } from './llms.js';
import { mcpPaths } from './mcp.js';
import { openAiCompatPaths } from './openai-compat.js';
import { pullsPaths } from './pulls.js';
import { searchPaths } from './search.js';
import { threadsOperations } from '../../threads/operations.js';
import { webhooksOperations } from '../../webhooks/operations.js';

/** Every feature's paths; each feature adds its own file and one line here. */
export const PATHS: PathItems[] = [
  pathItems(healthOperations),
  pathItems(agentOperations),
  agentV1Paths,
  pathItems(automationsOperations),
  pathItems(webhooksOperations),
  assistantPaths,
  browserPaths,
  searchPaths,
  pathItems(threadsOperations),
  pathItems(analyticsOperations),
  pullsPaths,
  mcpPaths,
  openAiCompatPaths,
  llmsPaths,
  adminPaths,
  pathItems(consoleOperations),
];
