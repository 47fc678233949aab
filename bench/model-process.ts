/**
 * The scripted model in its own process for the benchmark: a real provider
 * never shares the API's process, so its work must not count against the API.
 * It stands in for an OpenAI-compatible Chat Completions endpoint and streams
 * the same events as the test fake (a role chunk, one chunk per token, the
 * finish chunk, a usage chunk, `[DONE]`), one write per event; the events are
 * serialised once at start-up so that the model's CPU, which shares the
 * machine with the API under test, stays small.
 * Arguments: tokens, milliseconds between tokens, milliseconds before the
 * first token (a realistic provider: 300 ms, then 30 tokens/s, about 33 ms).
 * Prints its base URL on the first line of stdout.
 *
 *   model-process.ts TOKENS DELAY_MS [FIRST_TOKEN_MS [LONG_TOKENS LONG_TOKEN_CHARS LONG_DELAY_MS]]
 * A request whose body mentions `[long]` gets the long answer instead, paced by its own delay (the
 * slow-clients bench floods with it).
 */
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';

const tokens = Number(process.argv[2] ?? 200);
const delayMs = Number(process.argv[3] ?? 0);
const firstTokenMs = Number(process.argv[4] ?? delayMs);
const pieces = Array.from({ length: tokens }, (_, i) => `${i === 0 ? '' : ' '}tok${i}`);

const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: 'bench', choices, ...extra })}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, finish_reason: finish }]);
const eventsOf = (contents: string[]) => [
  delta({ role: 'assistant', content: '' }),
  ...contents.map((content) => delta({ content })),
  delta({}, 'stop'),
  chunk([], { usage: { prompt_tokens: 10, completion_tokens: contents.length, total_tokens: 10 + contents.length } }),
  'data: [DONE]\n\n',
];
const EVENTS = eventsOf(pieces);
const longTokens = Number(process.argv[5] ?? 0);
const longDelayMs = Number(process.argv[7] ?? 0);
const LONG_EVENTS = eventsOf(Array.from({ length: longTokens }, () => ` ${'x'.repeat(Number(process.argv[6] ?? 1000))}`));

function drainOrClose(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      res.off('drain', go).off('close', go);
      resolve();
    };
    res.on('drain', go).on('close', go);
  });
}

const server = http.createServer((req, res) => {
  if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
    return;
  }
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.once('end', () => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const long = LONG_EVENTS.length > 0 && body.includes('[long]');
    const events = long ? LONG_EVENTS : EVENTS;
    const between = long ? longDelayMs : delayMs;
    void (async () => {
      const count = long ? longTokens : tokens;
      for (const [i, event] of events.entries()) {
        if (res.destroyed) return;
        // A client (the API) that stops reading stops the model, as TCP would.
        if (!res.write(event)) await drainOrClose(res);
        // Events 1..count carry the tokens; the finish, usage and [DONE] events follow the last one at once.
        const pause = i === 0 && !long ? firstTokenMs : i < count ? between : 0;
        if (pause > 0) await sleep(pause);
      }
      res.end();
    })();
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the model server has no port');
  process.stdout.write(`http://127.0.0.1:${address.port}/v1\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
