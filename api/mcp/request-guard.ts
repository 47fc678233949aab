import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';
import { invalidParams } from './json-rpc-checks.js';

/**
 * Answers, on one POST's transport, the requests the SDK's server would answer wrongly, each as it
 * is handed on: alone or in a batch, a request gets the same answer. Call it once the server is
 * connected (the server sets the transport's `onmessage`; this wraps it).
 */
export function guardRequests(transport: Transport, logger: Logger): void {
  const serve = transport.onmessage;
  const answer = (message: JSONRPCMessage) =>
    void transport.send(message).catch((err: unknown) => logger.warn({ err }, 'MCP answer not sent'));
  transport.onmessage = (message, extra) => {
    const refusal = isJSONRPCRequest(message) ? invalidParams(message) : undefined;
    if (refusal) {
      answer(refusal);
      return;
    }
    serve?.(message, extra);
  };
}
