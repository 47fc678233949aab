/** A hit of the `search` tool result, as Mintlify's clients read it. */
export interface SearchHit {
  url: string;
  path: string;
  title: string;
}

/** What the widget takes from a v2 UI message stream. */
export interface StreamHandlers {
  thread(threadId: string, threadKey: string | undefined): void;
  /** The result of a `search` tool call: the pages the answer is drawn from. */
  hits(hits: SearchHit[]): void;
  text(delta: string): void;
  source(id: string, url: string, title: string): void;
  /** An error part: its text (the server's English), and its code from the message metadata sent just before it. */
  error(message: string | undefined, code: string | undefined): void;
}

const SEARCH_TOOL = 'search';

const stringOf = (value: unknown, name: string): string | undefined => {
  if (typeof value !== 'object' || value === null || !(name in value)) return undefined;
  const found: unknown = (value as Record<string, unknown>)[name];
  return typeof found === 'string' ? found : undefined;
};

const fieldOf = (value: unknown, name: string): unknown =>
  typeof value === 'object' && value !== null && name in value ? (value as Record<string, unknown>)[name] : undefined;

function searchHits(output: unknown): SearchHit[] {
  if (!Array.isArray(output)) return [];
  return output.flatMap((hit: unknown) => {
    const url = stringOf(hit, 'url');
    const path = stringOf(hit, 'path') ?? '';
    return url ? [{ url, path, title: stringOf(fieldOf(hit, 'metadata'), 'title') ?? path }] : [];
  });
}

/** Reads one stream: the ids of its `search` tool calls are remembered to pick out their results. */
function dispatcher(on: StreamHandlers): (chunk: unknown) => void {
  const searches = new Set<string>();
  let errorCode: string | undefined;
  return (chunk) => {
    const type = stringOf(chunk, 'type');
    const meta = fieldOf(chunk, 'messageMetadata');
    errorCode = stringOf(meta, 'errorCode') ?? errorCode;
    const threadId = stringOf(meta, 'threadId');
    if ((type === 'start' || type === 'finish') && threadId) on.thread(threadId, stringOf(meta, 'threadKey'));
    const callId = stringOf(chunk, 'toolCallId');
    if (type === 'tool-input-available' && callId && stringOf(chunk, 'toolName') === SEARCH_TOOL) searches.add(callId);
    if (type === 'tool-output-available' && callId && searches.has(callId)) on.hits(searchHits(fieldOf(chunk, 'output')));
    if (type === 'text-delta') on.text(stringOf(chunk, 'delta') ?? '');
    if (type === 'source-url') {
      const url = stringOf(chunk, 'url');
      if (url) on.source(stringOf(chunk, 'sourceId') ?? url, url, stringOf(chunk, 'title') ?? url);
    }
    if (type === 'error') on.error(stringOf(chunk, 'errorText'), errorCode);
  };
}

/** Reads the server-sent events of a response (`data: <JSON>` per event) until `[DONE]` or the end. */
export async function readUiMessageStream(body: ReadableStream<Uint8Array>, on: StreamHandlers): Promise<void> {
  const dispatch = dispatcher(on);
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of event.split('\n')) {
        if (!line.startsWith('data: ')) continue;
        const data = line.slice('data: '.length);
        if (data === '[DONE]') return;
        dispatch(JSON.parse(data));
      }
    }
    if (done) return;
  }
}
