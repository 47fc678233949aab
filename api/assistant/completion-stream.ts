/**
 * Reads a Chat Completions event stream in one linear pass. The `openai`
 * client still makes the request (auth, base URL, HTTP errors); we read the
 * body ourselves because its SSE reader copies the unread buffer once per
 * event, which turns a fast burst of tokens quadratic.
 */

export interface CompletionPiece {
  text?: string;
  usage?: { promptTokens: number; completionTokens: number };
  /** An error event some providers send inside the stream. */
  error?: string;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** The parts of one `chat.completion.chunk` the assistant uses. */
export function pieceOf(value: unknown): CompletionPiece {
  if (!isRecord(value)) return {};
  const piece: CompletionPiece = {};
  if (isRecord(value.error)) piece.error = typeof value.error.message === 'string' ? value.error.message : 'model error';
  const choice = Array.isArray(value.choices) ? value.choices[0] : undefined;
  if (isRecord(choice) && isRecord(choice.delta) && typeof choice.delta.content === 'string') piece.text = choice.delta.content;
  const u = value.usage;
  if (isRecord(u) && typeof u.prompt_tokens === 'number' && typeof u.completion_tokens === 'number') {
    piece.usage = { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens };
  }
  return piece;
}

/**
 * The `data:` payloads of a server-sent event stream, until `[DONE]`, one
 * batch per network read: tokens that arrived together are written together.
 */
export async function* eventData(body: AsyncIterable<Uint8Array>): AsyncGenerator<string[]> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of body) {
    buffer += decoder.decode(bytes, { stream: true }).replace(/\r\n?/g, '\n');
    let start = 0;
    const batch: string[] = [];
    let done = false;
    for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n', start)) {
      const event = buffer.slice(start, end);
      start = end + 2;
      const data = event
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(line.startsWith('data: ') ? 6 : 5))
        .join('\n');
      if (data === '[DONE]') {
        done = true;
        break;
      }
      if (data) batch.push(data);
    }
    if (batch.length > 0) yield batch;
    if (done) return;
    buffer = buffer.slice(start);
  }
}
