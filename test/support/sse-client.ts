/** A server-sent event as a client reads it off the wire. */
export interface SseFrame {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Headers;
  /** Resolves with the next frame, or undefined once the server ended the stream. */
  next(): Promise<SseFrame | undefined>;
  /** Comment lines (heartbeats) seen so far. */
  comments: number;
  close(): void;
}

/** Opens an event stream with fetch and parses it frame by frame, as EventSource would. */
export async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const controller = new AbortController();
  const res = await fetch(url, { headers, signal: controller.signal });
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const stream: SseStream = {
    status: res.status,
    headers: res.headers,
    comments: 0,
    close: () => controller.abort(),
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: SseFrame = { id: undefined, event: undefined, data: '' };
          let isComment = true;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) continue;
            isComment = false;
            const [field, ...rest] = line.split(':');
            const value = rest.join(':').replace(/^ /, '');
            if (field === 'id') frame.id = value;
            else if (field === 'event') frame.event = value;
            else if (field === 'data') frame.data += (frame.data ? '\n' : '') + value;
          }
          if (isComment) {
            stream.comments += 1;
            continue;
          }
          return frame;
        }
        const chunk = reader ? await reader.read() : { done: true, value: undefined };
        if (chunk.done) return undefined;
        buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
  };
  return stream;
}

/** Reads frames until the server ends the stream. */
export async function readToEnd(stream: SseStream): Promise<SseFrame[]> {
  const frames: SseFrame[] = [];
  for (let f = await stream.next(); f; f = await stream.next()) frames.push(f);
  return frames;
}
