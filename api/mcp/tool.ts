import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallerKind } from '../../core/analytics/index.js';
import type { Spent } from '../../core/limits/index.js';
import type { DocIndex } from '../../core/retrieval/index.js';
import type { Domain } from '../../core/tenants/index.js';
import type { AnswerService } from '../assistant/index.js';

/** What a tool call may use: the caller, its domain (if it is theirs), the index and the answer service. */
export interface ToolContext {
  domainId: string;
  /** Undefined when the domain is unknown or another organisation's. */
  domain: Domain | undefined;
  docIndex: DocIndex;
  answers: AnswerService;
  /** Who is calling, for the analytics of `ask`. */
  orgId: string;
  caller: CallerKind;
  /**
   * Spends one request of the caller's limits: `search` the organisation's
   * hourly limit (as the search endpoints do), `answer` all three assistant limits.
   */
  consume(kind: 'search' | 'answer'): Promise<Spent>;
  /**
   * Gives back what `consume` spent, for a call refused after it counted (see README, Rate
   * limits): the server calls it when a tool fails, never a tool itself.
   */
  giveBack(spent: Spent): Promise<void>;
  signal: AbortSignal;
}

/** One tool of the docs server: what `tools/list` shows and what `tools/call` runs. */
export interface DocsTool {
  definition: Tool;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<CallToolResult>;
}

/** A failure the calling model should read: it becomes a tool result with `isError: true`. */
export class ToolFailure extends Error {
  override name = 'ToolFailure';
}

export function toolError(message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

/** The caller's domain, or a failure that says what to check. */
export function requireDomain(ctx: ToolContext): Domain {
  if (!ctx.domain) throw new ToolFailure(`No documentation domain '${ctx.domainId}' exists for this key. Check the domain in the server URL (/mcp/{domain}).`);
  return ctx.domain;
}
