/**
 * The three ways the benchmark can read a streamed answer, to compare them
 * against the same model: the model port Quire ships (the `openai` client
 * builds the request, undici sends it, a linear reader parses it), the
 * `openai` client's own stream, and the plain `node:http` request Quire used
 * before the port (kept here only as the baseline).
 */
import http from 'node:http';
import OpenAI from 'openai';
import type { Config } from '../core/config.js';
import { createModelPort } from '../core/model/index.js';
import { eventData, pieceOf } from '../core/model/event-stream.js';

/** Starts one answer; yields its text per network read. */
export type StreamAnswer = () => AsyncGenerator<string>;

const MESSAGES = [{ role: 'user' as const, content: 'hi' }];
const NO_PROXY = { http: undefined, https: undefined, noProxy: undefined };

function endpoint(baseUrl: string): NonNullable<Config['model']> {
  return { provider: 'openai', baseUrl, apiKey: undefined, apiVersion: undefined, proxy: NO_PROXY, name: 'bench' };
}

export function portPath(baseUrl: string): StreamAnswer {
  const port = createModelPort(endpoint(baseUrl));
  return async function* () {
    for await (const batch of port.streamChat({ model: 'bench', messages: MESSAGES, signal: new AbortController().signal })) {
      if (batch.text) yield batch.text;
    }
  };
}

export function openAiStreamPath(baseUrl: string): StreamAnswer {
  const client = new OpenAI({ baseURL: baseUrl, apiKey: 'unused', maxRetries: 0 });
  return async function* () {
    const stream = await client.chat.completions.create({ model: 'bench', messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (text) yield text;
    }
  };
}

export function nodeHttpPath(baseUrl: string): StreamAnswer {
  const agent = new http.Agent({ keepAlive: true });
  const url = new URL(`${baseUrl}/chat/completions`);
  const body = JSON.stringify({ model: 'bench', messages: MESSAGES, stream: true, stream_options: { include_usage: true } });
  const headers = { 'content-type': 'application/json', accept: 'text/event-stream', 'content-length': Buffer.byteLength(body) };
  return async function* () {
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const req = http.request(url, { method: 'POST', headers, agent }, resolve);
      req.once('error', reject);
      req.end(body);
    });
    for await (const batch of eventData(res.iterator({ destroyOnReturn: false }))) {
      const text = batch.data.map((d) => pieceOf(JSON.parse(d)).text ?? '').join('');
      if (text) yield text;
    }
    res.resume();
  };
}

export const CLIENT_PATHS = { 'model port (undici)': portPath, 'openai stream': openAiStreamPath, 'node:http (before)': nodeHttpPath };
