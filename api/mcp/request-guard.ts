import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CancelledNotificationSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../core/logger.js';
import { invalidParams, REQUEST_CANCELLED } from './json-rpc-checks.js';

/**
 * Answers, on one POST's transport, the requests the SDK's server would answer wrongly, each as it
 * is handed on, so a request in a batch gets the answer it gets alone:
 *
 * - params that do not fit the method: -32602 with the field (the SDK: -32603 with its validator's dump);
 * - a request that a `notifications/cancelled` later in the same batch cancels: the SDK aborts its
 *   handler (an `ask` stops its model request) and, as the spec asks, answers nothing; but a JSON
 *   response is written once every request of the POST is answered, so it would never be. It is
 *   answered `REQUEST_CANCELLED`, which the client, having cancelled it, ignores.
 *
 * Stateless, a POST's requests are all this server knows: a cancellation sent in another POST
 * names an id of some client's, which may be another client's under the same public key, on
 * another replica. That request ends when its client closes its connection (see router.ts).
 *
 * Call it once the server is connected (the server sets the transport's `onmessage`; this wraps it).
 */
export function guardRequests(transport: Transport, logger: Logger): void {
  const serve = transport.onmessage;
  const send = transport.send.bind(transport);
  /** The requests of this POST not yet answered. */
  const pending = new Set<RequestId>();
  const answer = (message: JSONRPCMessage) => void send(message).catch((err: unknown) => logger.warn({ err }, 'MCP answer not sent'));
  transport.send = (message, options) => {
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      if (message.id === undefined || !pending.delete(message.id)) return Promise.resolve();
    }
    return send(message, options);
  };
  transport.onmessage = (message, extra) => {
    if (isJSONRPCRequest(message)) {
      const refusal = invalidParams(message);
      if (refusal) return answer(refusal);
      pending.add(message.id);
    }
    serve?.(message, extra);
    const cancel = CancelledNotificationSchema.safeParse(message);
    const id = cancel.success ? cancel.data.params.requestId : undefined;
    if (id !== undefined && pending.delete(id)) {
      const reason = cancel.data?.params.reason;
      answer({ jsonrpc: '2.0', id, error: { code: REQUEST_CANCELLED, message: `Request cancelled${reason ? `: ${reason}` : ''}` } });
    }
  };
}
