import { requestFailure, streamFailure, type Failure } from './failures.js';
import type { ThreadStorage } from './thread-storage.js';
import { readUiMessageStream, type StreamHandlers } from './ui-stream.js';
import type { WidgetWords } from './words.js';

export interface AssistantClientOptions {
  /** Base URL of the Quire API. */
  api: string;
  domain: string;
  /** The public assistant key (`quire_dsc_…`). */
  assistantKey: string;
  threads: ThreadStorage;
  /** The widget's language, for a failure said before the answer's stream begins. */
  words: WidgetWords;
}

/** What the panel is told of an answer: the stream's parts, and a failure worded in the widget's language. */
export type AnswerHandlers = Omit<StreamHandlers, 'thread' | 'error'> & { error(failure: Failure): void };

/**
 * Erases the saved thread on the server (its exchanges, and what analytics kept of them) and forgets
 * it here. True once it is gone, or was already (404: expired, or erased before); false when the
 * server could not be reached or refused, and the thread is kept.
 */
export async function eraseThread(options: AssistantClientOptions): Promise<boolean> {
  const thread = options.threads.load();
  if (!thread) return true;
  const res = await fetch(`${options.api}/discovery/v1/assistant/${encodeURIComponent(options.domain)}/threads/${encodeURIComponent(thread.threadId)}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${options.assistantKey}`, 'X-Thread-Key': thread.threadKey },
  }).catch(() => undefined);
  if (!res || (res.status !== 204 && res.status !== 404)) return false;
  options.threads.clear();
  return true;
}

let counter = 0;

/**
 * Asks the v2 assistant endpoint one question in the saved thread: only the
 * new message is sent, the server keeps the history under the thread's id
 * and key. A thread the server no longer knows (expired) is forgotten and
 * the question is asked again in a new one.
 */
export async function ask(options: AssistantClientOptions, question: string, on: AnswerHandlers): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const thread = options.threads.load();
    const path = typeof location === 'object' ? location.pathname : '';
    const body = {
      fp: 'anonymous',
      messages: [{ id: `w_${Date.now().toString(36)}_${counter++}`, role: 'user', parts: [{ type: 'text', text: question }] }],
      ...(thread ? { threadId: thread.threadId, threadKey: thread.threadKey } : {}),
      ...(path && path.length <= 200 ? { currentPath: path } : {}),
    };
    const res = await fetch(`${options.api}/discovery/v2/assistant/${encodeURIComponent(options.domain)}/message`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.assistantKey}` },
      body: JSON.stringify(body),
    });
    if (res.status === 404 && thread) {
      await res.body?.cancel();
      options.threads.clear();
      continue;
    }
    if (!res.ok || !res.body) {
      const error: unknown = await res.json().catch(() => undefined);
      on.error(requestFailure(options.words, res.status, error, res.headers.get('Retry-After')));
      return;
    }
    await readUiMessageStream(res.body, {
      ...on,
      error: (message, code) => on.error(streamFailure(options.words, code, message)),
      thread: (threadId, threadKey) => {
        if (threadKey) options.threads.save({ threadId, threadKey });
      },
    });
    return;
  }
}
