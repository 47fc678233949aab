/**
 * The strictness of the AI SDK releases that reject unknown fields on a UI
 * message chunk (ai 5.0.0–5.0.216, 6.0.0–6.0.230, 7.0.0–7.0.31; see the
 * protocol notes). The installed `ai-v5`/`ai-v6`/`ai-v7` are later, lenient
 * releases and cannot be swapped here, so the fields those strict releases
 * accepted per chunk type are listed (from the public chunk schema of ai
 * 5.0.0) and every chunk the server sends is checked against them.
 */
const STRICT_FIELDS: Record<string, { required: string[]; optional: string[] }> = {
  start: { required: [], optional: ['messageId', 'messageMetadata'] },
  'start-step': { required: [], optional: [] },
  'finish-step': { required: [], optional: [] },
  // `finishReason` here breaks 5.0.0–5.0.91; the server never sends it.
  finish: { required: [], optional: ['messageMetadata'] },
  'message-metadata': { required: ['messageMetadata'], optional: [] },
  'text-start': { required: ['id'], optional: ['providerMetadata'] },
  'text-delta': { required: ['id', 'delta'], optional: ['providerMetadata'] },
  'text-end': { required: ['id'], optional: ['providerMetadata'] },
  error: { required: ['errorText'], optional: [] },
  'tool-input-available': { required: ['toolCallId', 'toolName', 'input'], optional: ['providerExecuted', 'providerMetadata'] },
  'tool-output-available': { required: ['toolCallId', 'output'], optional: ['providerExecuted'] },
  'source-url': { required: ['sourceId', 'url'], optional: ['title', 'providerMetadata'] },
};

/** Every problem a strict client would raise for this chunk; [] when it accepts it. */
export function strictChunkProblems(chunk: Record<string, unknown>): string[] {
  const type = typeof chunk.type === 'string' ? chunk.type : '';
  const fields = STRICT_FIELDS[type];
  if (!fields) return [`unknown chunk type '${type}'`];
  const known = new Set(['type', ...fields.required, ...fields.optional]);
  return [
    ...fields.required.filter((f) => !(f in chunk)).map((f) => `${type}: missing ${f}`),
    ...Object.keys(chunk).filter((k) => !known.has(k)).map((k) => `${type}: unknown field ${k}`),
  ];
}

/** The chunks of a v2 response body, checked for the SSE framing the clients need. */
export function sseChunks(body: string): Array<Record<string, unknown>> {
  if (!body.endsWith('data: [DONE]\n\n')) throw new Error('the stream does not end with data: [DONE]');
  const events = body.slice(0, -'\n\n'.length).split('\n\n');
  return events
    .filter((e) => e !== 'data: [DONE]')
    .map((e) => {
      if (!e.startsWith('data: ') || e.includes('\n')) throw new Error(`not one data line per event: ${JSON.stringify(e)}`);
      return JSON.parse(e.slice('data: '.length)) as Record<string, unknown>;
    });
}

/** Part codes ai 4.1 and later know; any other code puts the client in error. */
export const V1_CODES = new Set(['0', '2', '3', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']);
