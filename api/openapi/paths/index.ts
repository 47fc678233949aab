import type { PathItems } from '../types.js';
import { agentOperations } from '../../agent/operations.js';
import { pathItems } from '../operation.js';
import { adminOperations } from '../../admin/operations.js';
import { analyticsPaths } from './analytics.js';
import { agentV1Operations } from '../../agent/v1/operations.js';
import { assistantOperations } from '../../assistant/operations.js';
import { automationsOperations } from '../../automations/operations.js';
import { browserOperations } from '../../browser-operations.js';
import { widgetOperations } from '../../widget/operations.js';
import { healthOperations } from '../../health-operations.js';
import { llmsOperations } from '../../llms/operations.js';
import { mcpOperations } from '../../mcp/operations.js';
import { openAiCompatOperations } from '../../openai-compat/operations.js';
import { pullsOperations } from '../../pulls/operations.js';
import { searchOperations } from '../../search/operations.js';
import { threadsOperations } from '../../threads/operations.js';

/** Every feature's paths; each feature adds its own file and one line here. */
export const PATHS: PathItems[] = [
  pathItems(healthOperations),
  pathItems(agentOperations),
  pathItems(agentV1Operations),
  pathItems(automationsOperations),
  pathItems(assistantOperations),
  pathItems(browserOperations),
  pathItems(widgetOperations),
  pathItems(searchOperations),
  pathItems(threadsOperations),
  analyticsPaths,
  pathItems(pullsOperations),
  pathItems(mcpOperations),
  pathItems(openAiCompatOperations),
  pathItems(llmsOperations),
  pathItems(adminOperations),
];
