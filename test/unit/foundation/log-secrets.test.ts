/** No key, token or URL credential reaches a log line, whichever part of the line carries it. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../../core/logger.js';
import { newSecret } from '../../../core/tenants/keys.js';

function capture() {
  const lines: string[] = [];
  const logger = createLogger('info', 'test', new Writable({ write: (chunk: Buffer, _e, done) => void (lines.push(chunk.toString()), done()) }));
  return { logger, lines };
}

describe('log lines and secrets', () => {
  const key = newSecret('admin');
  const token = 'ghp_abcdefghijklmnopqrstuvwxyz0123';
  const url = `https://x-access-token:${token}@github.com/acme/docs.git`;

  it("masks them in an error's message, stack and causes, in string fields and in the message", () => {
    const { logger, lines } = capture();
    const cause = new Error(`fatal: could not read from ${url}`);
    const err = new Error(`clone failed for key ${key}`, { cause });
    logger.error({ err, reason: `upstream said Bearer ${key}`, jobId: 'job_1', turn: 2 }, `retrying ${url}`);
    logger.warn({ err: `written with ${key}` }, 'not stored');
    const text = lines.join('');
    for (const secret of [key, token]) assert.ok(!text.includes(secret), `${secret} in ${text}`);
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const logged = first!.err as { type: string; message: string; stack: string };
    // What is not secret stays: the error's class, the rest of its words and its cause's, the other fields.
    assert.equal(logged.type, 'Error');
    assert.equal(logged.message, 'clone failed for key [redacted]: fatal: could not read from https://[redacted]github.com/acme/docs.git');
    assert.match(logged.stack, /^Error: clone failed for key \[redacted\]\n\s+at /);
    assert.match(logged.stack, /caused by: Error: fatal: could not read from https:\/\/\[redacted\]github\.com\/acme\/docs\.git/);
    assert.equal(first!.reason, 'upstream said Bearer [redacted]');
    assert.equal(first!.jobId, 'job_1');
    assert.equal(first!.turn, 2);
    assert.equal(first!.msg, 'retrying https://[redacted]github.com/acme/docs.git');
    assert.equal(second!.err, 'written with [redacted]');
  });
});
