/** What the widget takes from a v2 UI message stream. */
export interface StreamHandlers {
  thread(threadId: string, threadKey: string | undefined): void;
  text(delta: string): void;
  source(url: string, title: string): void;
  error(message: string): void;
}

const stringOf = (value: unknown, name: string): string | undefined => {
  if (typeof value !== 'object' || value === null || !(name in value)) return undefined;
  const found: unknown = (value as Record<string, unknown>)[name];
  return typeof found === 'string' ? found : undefined;
};

function dispatch(chunk: unknown, on: StreamHandlers): void {
  const type = stringOf(chunk, 'type');
  const meta = typeof chunk === 'object' && chunk !== null && 'messageMetadata' in chunk ? chunk.messageMetadata : undefined;
  const threadId = stringOf(meta, 'threadId');
  if ((type === 'start' || type === 'finish') && threadId) on.thread(threadId, stringOf(meta, 'threadKey'));
  if (type === 'text-delta') on.text(stringOf(chunk, 'delta') ?? '');
  if (type === 'source-url') {
    const url = stringOf(chunk, 'url');
    if (url) on.source(url, stringOf(chunk, 'title') ?? url);
  }
  if (type === 'error') on.error(stringOf(chunk, 'errorText') ?? 'The answer could not be completed.');
}

/** Reads the server-sent events of a response (`data: <JSON>` per event) until `[DONE]` or the end. */
export async function readUiMessageStream(body: ReadableStream<Uint8Array>, on: StreamHandlers): Promise<void> {
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
        dispatch(JSON.parse(data), on);
      }
    }
    if (done) return;
  }
}
