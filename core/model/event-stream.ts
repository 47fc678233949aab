/**
 * Reads a Chat Completions event stream in one linear pass (the `openai`
 * client's SSE reader copied the unread buffer once per event, which turned a
 * fast burst of tokens quadratic).
 */

export interface CompletionPiece {
  text?: string;
  usage?: { promptTokens: number; completionTokens: number };
  /** An error event some providers send inside the stream. */
  error?: string;
  /** The choice's `finish_reason`, in the chunk that ends it. */
  finishReason?: string;
  /** Pieces of tool calls: the first piece of a call has its id and name, every piece may add to its arguments. */
  toolCalls?: ToolCallPiece[];
}

export interface ToolCallPiece {
  index: number;
  id?: string;
  name?: string;
  arguments?: string;
}

function toolCallPieces(value: unknown): ToolCallPiece[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.filter(isRecord).map((call, i) => {
    const fn = isRecord(call.function) ? call.function : {};
    return {
      index: typeof call.index === 'number' ? call.index : i,
      ...(typeof call.id === 'string' ? { id: call.id } : {}),
      ...(typeof fn.name === 'string' ? { name: fn.name } : {}),
      ...(typeof fn.arguments === 'string' ? { arguments: fn.arguments } : {}),
    };
  });
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The parts of one `chat.completion.chunk` the assistant uses. */
export function pieceOf(value: unknown): CompletionPiece {
  if (!isRecord(value)) return {};
  const piece: CompletionPiece = {};
  if (isRecord(value.error)) piece.error = typeof value.error.message === 'string' ? value.error.message : 'model error';
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (isRecord(choice) && isRecord(choice.delta) && typeof choice.delta.content === 'string') piece.text = choice.delta.content;
  if (isRecord(choice) && typeof choice.finish_reason === 'string') piece.finishReason = choice.finish_reason;
  const calls = isRecord(choice) && isRecord(choice.delta) ? toolCallPieces(choice.delta.tool_calls) : undefined;
  if (calls?.length) piece.toolCalls = calls;
  const u = value.usage;
  if (isRecord(u) && typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number') {
    piece.usage = { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
  }
  return piece;
}

/** The `data:` payloads of the events that arrived in one network read. */
export interface EventBatch {
  data: string[];
  /** `[DONE]` arrived: the stream is complete. */
  done: boolean;
}

/** The data of one event: its `data:` lines joined by newlines (one line, the usual case, is one slice). */
function dataOf(event: string): string {
  if (event.startsWith('data: ') && !event.includes('\n')) return event.slice(6);
  return event
    .split('\n')
    .filter((line) => line.startsWith('data:'))
    .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
    .join('\n');
}

/**
 * The `data:` payloads of a server-sent event stream, until `[DONE]`, one
 * batch per network read: tokens that arrived together are written together.
 */
export async function* eventData(body: AsyncIterable<Uint8Array>): AsyncGenerator<EventBatch> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    const text = decoder.decode(bytes, { stream: true });
    buffer += text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
    let start = 0;
    const data: string[] = [];
    let done = false;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
      const payload = dataOf(buffer.slice(start, end));
      start = end + 2;
      if (payload === '[DONE]') {
        done = true;
        break;
      }
      if (payload) data.push(payload);
    }
    if (data.length > 0 || done) yield { data, done };
    if (done) return;
    buffer = buffer.slice(start);
  }
}
