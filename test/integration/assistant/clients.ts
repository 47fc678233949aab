/**
 * The real AI SDK client code reading the server's streams: `ai@4`'s
 * `processDataStream` for v1, and for v2 each of `ai@5`, `ai@6` and `ai@7`
 * (`DefaultChatTransport` + `readUIMessageStream`, and a `Chat`).
 */
import { processDataStream } from '@ai-sdk/ui-utils';
import * as ai5 from 'ai-v5';
import * as ai6 from 'ai-v6';
import * as ai7 from 'ai-v7';

export interface SearchToolReading {
  toolName: string;
  query: unknown;
  hits: Array<{ path: string; url: string; content: string; metadata: { title: string; retrieval?: string } }>;
}

export interface ClientReading {
  text: string;
  sources: Array<{ id: string; url: string; title: string | undefined }>;
  threadId: string | undefined;
  threadKey: string | undefined;
  /** The retrieval as the client saw it: the `search` tool call and its result. */
  search: SearchToolReading | undefined;
  /** Every `search` tool call in order: the retrieval, then the model's own searches. */
  searches: SearchToolReading[];
  /** How the query rewrite went, from the message metadata (v2) or annotation (v1). */
  queryRewrite: string | undefined;
  errors: string[];
  /** The code of the error part, from the message metadata (v2) or annotation (v1). */
  errorCode: string | undefined;
}

const field = (value: unknown, name: string): string | undefined => {
  if (typeof value !== 'object' || value === null || !(name in value)) return undefined;
  const found: unknown = (value as Record<string, unknown>)[name];
  return typeof found === 'string' ? found : undefined;
};
const threadIdOf = (metadata: unknown) => field(metadata, 'threadId');
const threadKeyOf = (metadata: unknown) => field(metadata, 'threadKey');
const queryRewriteOf = (metadata: unknown) => field(metadata, 'queryRewrite');

function hitsOf(result: unknown): SearchToolReading['hits'] {
  if (!Array.isArray(result)) throw new Error(`the search result is not a list: ${JSON.stringify(result)}`);
  return result as SearchToolReading['hits'];
}

/** Reads a v1 response with ai@4's own data-stream parser. */
export async function readV1(res: Response): Promise<ClientReading> {
  const reading: ClientReading = { text: '', sources: [], threadId: undefined, threadKey: undefined, search: undefined, searches: [], queryRewrite: undefined, errors: [], errorCode: undefined };
  if (!res.body) throw new Error('no body');
  const calls = new Map<string, { toolName: string; args: unknown }>();
  await processDataStream({
    stream: res.body,
    onTextPart: (t) => void (reading.text += t),
    onSourcePart: (s) => void reading.sources.push({ id: s.id, url: s.url, title: s.title }),
    onErrorPart: (e) => void reading.errors.push(e),
    onMessageAnnotationsPart: (annotations) => {
      for (const a of annotations) {
        reading.threadId ??= threadIdOf(a);
        reading.threadKey ??= threadKeyOf(a);
        reading.queryRewrite ??= queryRewriteOf(a);
        reading.errorCode ??= field(a, 'errorCode');
      }
    },
    onToolCallPart: (call) => void calls.set(call.toolCallId, { toolName: call.toolName, args: call.args }),
    onToolResultPart: (r) => {
      const call = calls.get(r.toolCallId);
      if (!call) throw new Error(`a tool result without its call: ${r.toolCallId}`);
      const search = { toolName: call.toolName, query: field(call.args, 'query'), hits: hitsOf(r.result) };
      reading.search ??= search;
      reading.searches.push(search);
    },
  });
  return reading;
}

export interface UiPart {
  type: string;
  text?: string;
  url?: string;
  sourceId?: string;
  title?: string;
  state?: string;
  input?: unknown;
  output?: unknown;
}

/** The `search` tool parts of a v2 message (`tool-search`, each finished with its output), in order. */
export function searchPartsOf(parts: UiPart[]): SearchToolReading[] {
  return parts
    .filter((p) => p.type === 'tool-search')
    .map((part) => {
      if (part.state !== 'output-available') throw new Error(`the search tool part is ${part.state}`);
      return { toolName: 'search', query: field(part.input, 'query'), hits: hitsOf(part.output) };
    });
}

/** The first `search` tool part of a v2 message: the retrieval. */
export const searchPartOf = (parts: UiPart[]): SearchToolReading | undefined => searchPartsOf(parts)[0];

function readingOf(message: { parts: UiPart[]; metadata?: unknown } | undefined, errors: string[]): ClientReading {
  const parts = message?.parts ?? [];
  return {
    text: parts.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join(''),
    sources: parts.flatMap((p) => (p.type === 'source-url' && p.url ? [{ id: p.sourceId ?? '', url: p.url, title: p.title }] : [])),
    threadId: threadIdOf(message?.metadata),
    threadKey: threadKeyOf(message?.metadata),
    search: searchPartOf(parts),
    searches: searchPartsOf(parts),
    queryRewrite: queryRewriteOf(message?.metadata),
    errors,
    errorCode: field(message?.metadata, 'errorCode'),
  };
}

export type V2Client = 'ai5' | 'ai6' | 'ai7';
export const V2_CLIENTS: V2Client[] = ['ai5', 'ai6', 'ai7'];

export interface V2Request {
  url: string;
  key: string;
  body: Record<string, unknown>;
  text: string;
}

/** Posts with the client's DefaultChatTransport and folds the chunks with its readUIMessageStream. */
export async function readV2(client: V2Client, req: V2Request): Promise<ClientReading> {
  const errors: string[] = [];
  const onError = (e: unknown) => void errors.push(e instanceof Error ? e.message : String(e));
  const messages = [{ id: 'u1', role: 'user' as const, parts: [{ type: 'text' as const, text: req.text }] }];
  const send = { trigger: 'submit-message' as const, chatId: 'chat-1', messageId: undefined, messages, abortSignal: undefined, body: req.body };
  const init = { api: req.url, headers: { authorization: `Bearer ${req.key}` } };
  let last: { parts: UiPart[]; metadata?: unknown } | undefined;
  if (client === 'ai5') {
    const stream = await new ai5.DefaultChatTransport(init).sendMessages(send);
    for await (const m of ai5.readUIMessageStream({ stream, onError })) last = m;
  } else if (client === 'ai6') {
    const stream = await new ai6.DefaultChatTransport(init).sendMessages(send);
    for await (const m of ai6.readUIMessageStream({ stream, onError })) last = m;
  } else {
    const stream = await new ai7.DefaultChatTransport(init).sendMessages(send);
    for await (const m of ai7.readUIMessageStream({ stream, onError })) last = m;
  }
  return readingOf(last, errors);
}
