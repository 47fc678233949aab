import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { ToolFailure } from './tool.js';

const validator = new AjvJsonSchemaValidator();

/**
 * A checker for a tool's arguments against the very JSON Schema `tools/list`
 * shows, so what the model is told and what the server accepts cannot drift.
 * Compiled once per tool, when its module loads.
 */
export function argumentsOf<T>(tool: Pick<Tool, 'name' | 'inputSchema'>): (args: Record<string, unknown>) => T {
  const check = validator.getValidator<T>(tool.inputSchema);
  return (args) => {
    const result = check(args);
    if (result.valid) return result.data;
    const reason = result.errorMessage.replace(/(^|, )data\/?/g, '$1').replace(/^ /, '');
    throw new ToolFailure(`Invalid arguments for ${tool.name}: ${reason}.`);
  };
}
