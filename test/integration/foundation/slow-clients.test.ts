import assert from 'node:assert/strict';
import { once } from 'node:events';
import net from 'node:net';
import { createApp } from '../../../api/app.js';
import { healthRouter } from '../../../api/health.js';
import { serve, testServices } from '../../support/services.js';
import { assistantWorld, userMessage } from '../assistant/harness.js';

/** Collects what a socket receives until it closes. */
function replyOf(socket: net.Socket): Promise<string> {
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  return new Promise((resolve) => socket.once('close', () => resolve(Buffer.concat(chunks).toString('utf8'))));
}

const statusOf = (reply: string) => Number(reply.split(' ')[1]);
const bodyOf = (reply: string) => JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as { code: string };

describe('slow clients', function () {
  this.timeout(60_000);

  it('slowloris: headers sent a byte at a time are cut off at the header deadline with a 408 JSON error', async () => {
    const services = await testServices({ withTemporal: false, env: { QUIRE_HTTP_HEADERS_TIMEOUT_MS: '300' } });
    const { url } = await serve(createApp(services, [healthRouter]), services.config.http);
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    const reply = replyOf(socket);
    // Headers that never end: one more byte every 50 ms for as long as the server listens.
    const drip = setInterval(() => socket.writable && socket.write('X'), 50);
    socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\nX-Slow: ');
    const text = await reply;
    clearInterval(drip);
    assert.equal(statusOf(text), 408);
    assert.equal(bodyOf(text).code, 'request_timeout');
  });

  it('a body trickled slower than the request deadline is cut off with 408', async () => {
    const services = await testServices({
      withTemporal: false,
      env: { QUIRE_HTTP_HEADERS_TIMEOUT_MS: '200', QUIRE_HTTP_REQUEST_TIMEOUT_MS: '400' },
    });
    const { url } = await serve(createApp(services, [healthRouter]), services.config.http);
    const socket = net.connect(Number(new URL(url).port), '127.0.0.1');
    const reply = replyOf(socket);
    socket.write('POST /healthz HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
    const drip = setInterval(() => socket.writable && socket.write(' '), 50);
    const text = await reply;
    clearInterval(drip);
    assert.equal(statusOf(text), 408);
  });

  it('a stream whose client never reads is ended after the stall timeout, and its model request aborted', async () => {
    // ~24 MB of answer: far more than the kernel's socket buffers hold for a reader that never reads.
    const tokens = 3000;
    const text = `${'x'.repeat(8000)} `.repeat(tokens);
    const world = await assistantWorld({ script: () => ({ text }), env: { QUIRE_STREAM_STALL_TIMEOUT_MS: '300' } });
    const model = world.model!;
    const aborted = once(model.events, 'aborted');

    const body = JSON.stringify({ fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });
    const socket = net.connect(Number(new URL(world.url).port), '127.0.0.1');
    socket.write(
      `POST /discovery/v2/assistant/${world.domainId}/message HTTP/1.1\r\nHost: test\r\n` +
        `Authorization: Bearer ${world.org.assistantKey}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
    // No 'data' listener and paused: this client reads nothing until the model request has been aborted.
    socket.pause();
    await aborted;
    assert.ok(model.chunksWritten < tokens, `the model was not read to its end (${model.chunksWritten} of ${tokens} chunks)`);

    // Now read: what arrived is a stream cut short (no finish), and the server has closed the connection.
    const received = replyOf(socket);
    socket.resume();
    const all = await received;
    assert.match(all, /^HTTP\/1\.1 200/);
    assert.match(all, /"type":"text-delta"/);
    assert.ok(!all.includes('"type":"finish"'), 'the stream was ended, not finished');
  });

  it('a client that reads slowly but steadily gets the whole answer (backpressure, not a cut)', async () => {
    const tokens = 400;
    const text = `${'y'.repeat(4000)} `.repeat(tokens);
    const world = await assistantWorld({ script: () => ({ text }), env: { QUIRE_STREAM_STALL_TIMEOUT_MS: '2000' } });
    const res = await world.post('v2', { fp: 'anonymous', messages: [userMessage('How do I install the CLI?')] });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    let received = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += Buffer.from(value).toString('utf8');
      // Reading in small sips with pauses in between: the buffers fill, the model waits, nothing is cut.
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(received.endsWith('data: [DONE]\n\n'));
    assert.equal(world.model!.aborted, 0);
  });
});
