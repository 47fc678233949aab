import type { PathItems } from '../types.js';
import { agentOperations, agentSchemas } from '../../agent/operations.js';
import { pathItems, type NamedSchemas, type OperationSpec } from '../operation.js';
import { adminOperations } from '../../admin/operations.js';
import { analyticsOperations } from '../../analytics/operations.js';
import { agentV1Operations } from '../../agent/v1/operations.js';
import { assistantOperations } from '../../assistant/operations.js';
import { automationsOperations } from '../../automations/operations.js';
import { browserOperations } from '../../browser-operations.js';
import { widgetOperations } from '../../widget/operations.js';
import { consoleOperations } from '../../console/operations.js';
import { healthOperations } from '../../health-operations.js';
import { hooksOperations } from '../../hooks/operations.js';
import { llmsOperations } from '../../llms/operations.js';
import { mcpOperations } from '../../mcp/operations.js';
import { openAiCompatOperations } from '../../openai-compat/operations.js';
import { pullsOperations } from '../../pulls/operations.js';
import { searchOperations } from '../../search/operations.js';
import { threadsOperations } from '../../threads/operations.js';
import { webhooksOperations } from '../../webhooks/operations.js';

/** Every operation declared beside its route; each feature adds its list here. */
export const OPERATIONS: OperationSpec[] = [
  ...healthOperations,
  ...agentOperations,
  ...agentV1Operations,
  ...automationsOperations,
  ...webhooksOperations,
  ...assistantOperations,
  ...browserOperations,
  ...widgetOperations,
  ...searchOperations,
  ...hooksOperations,
  ...threadsOperations,
  ...pullsOperations,
  ...mcpOperations,
  ...openAiCompatOperations,
  ...llmsOperations,
  ...adminOperations,
  ...analyticsOperations,
  ...consoleOperations,
];

/**
 * The named schemas (`#/components/schemas/…`): the shapes operations share, each written out once;
 * a feature that names one adds it here.
 */
export const SCHEMAS: NamedSchemas = { ...agentSchemas };

/** The document's paths, from the declared operations, referring to the named schemas they use. */
export const PATHS: PathItems[] = [pathItems(OPERATIONS, SCHEMAS)];
