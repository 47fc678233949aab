import { adminRouter, operatorRouter } from './admin/index.js';
import { agentRouter } from './agent/index.js';
import { analyticsRouter } from './analytics/index.js';
import { agentV1Router } from './agent/v1/index.js';
import { automationsRouter } from './automations/index.js';
import { consoleRouter } from './console/index.js';
import { healthRouter } from './health.js';
import { pushHookRouter } from './hooks/index.js';
import { openApiRouter } from './openapi/index.js';
import { pullsRouter } from './pulls/index.js';
import { assistantRouter } from './assistant/index.js';
import { threadsRouter } from './threads/index.js';
import { searchRouter } from './search/index.js';
import { mcpRouter } from './mcp/index.js';
import { openAiCompatRouter } from './openai-compat/index.js';
import { llmsRouter } from './llms/index.js';
import { webhooksRouter } from './webhooks/index.js';
import { widgetRouter } from './widget/index.js';
import type { Feature } from './services.js';

/** Every router the API serves, in order. Each feature folder adds its own line. */
export const FEATURES: Feature[] = [
  healthRouter,
  openApiRouter,
  agentRouter,
  agentV1Router,
  automationsRouter,
  webhooksRouter,
  assistantRouter,
  threadsRouter,
  analyticsRouter,
  pullsRouter,
  searchRouter,
  pushHookRouter,
  mcpRouter,
  openAiCompatRouter,
  llmsRouter,
  widgetRouter,
  adminRouter,
  operatorRouter,
  consoleRouter,
];
