import type { PathItems } from '../types.js';
import { agentOperations, agentSchemas } from '../../agent/operations.js';
import { pathItems, type NamedJsonSchemas, type NamedSchemas, type OperationSpec } from '../operation.js';
import { adminOperations, adminSchemas } from '../../admin/operations.js';
import { analyticsOperations, analyticsSchemas } from '../../analytics/operations.js';
import { agentV1JsonSchemas, agentV1Operations, agentV1Schemas } from '../../agent/v1/operations.js';
import { assistantOperations, assistantSchemas } from '../../assistant/operations.js';
import { automationsOperations, automationsSchemas } from '../../automations/operations.js';
import { browserOperations } from '../../browser-operations.js';
import { widgetOperations } from '../../widget/operations.js';
import { consoleOperations, consoleSchemas } from '../../console/operations.js';
import { healthOperations, healthSchemas } from '../../health-operations.js';
import { hooksOperations, hooksSchemas } from '../../hooks/operations.js';
import { llmsOperations } from '../../llms/operations.js';
import { mcpOperations, mcpSchemas } from '../../mcp/operations.js';
import { openAiCompatOperations, openAiCompatSchemas } from '../../openai-compat/operations.js';
import { pullsOperations } from '../../pulls/operations.js';
import { searchOperations } from '../../search/operations.js';
import { threadsOperations } from '../../threads/operations.js';
import { webhooksOperations, webhooksSchemas } from '../../webhooks/operations.js';

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
export const SCHEMAS: NamedSchemas = {
  ...healthSchemas,
  ...agentSchemas,
  ...agentV1Schemas,
  ...automationsSchemas,
  ...webhooksSchemas,
  ...assistantSchemas,
  ...hooksSchemas,
  ...mcpSchemas,
  ...openAiCompatSchemas,
  ...adminSchemas,
  ...analyticsSchemas,
  ...consoleSchemas,
};

/** The named schemas written as JSON Schema by hand (`#/components/schemas/…`, referred to with `schemaRef`); a feature that names one adds it here. */
export const JSON_SCHEMAS: NamedJsonSchemas = { ...agentV1JsonSchemas };

/** The document's paths, from the declared operations, referring to the named schemas they use. */
export const PATHS: PathItems[] = [pathItems(OPERATIONS, SCHEMAS)];
