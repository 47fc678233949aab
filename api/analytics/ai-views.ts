import type { Context } from 'koa';
import type { ApiServices } from '../services.js';
import { recorderOf } from './recorder-of.js';

/**
 * Records a view by AI: something Quire served to a machine (MCP, the OpenAI-compatible
 * endpoint, llms.txt, a page or a search called with a key from a server). Off the response
 * path like every analytics event; the address and user agent only make the visitor hash.
 */
export function recordAiView(services: Pick<ApiServices, 'analytics'>, ctx: Context, domainId: string, path: string): void {
  recorderOf(services).recordView({ domainId, path, traffic: 'ai', ip: ctx.ip, userAgent: ctx.get('User-Agent') });
}
