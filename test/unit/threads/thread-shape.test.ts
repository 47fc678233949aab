import assert from 'node:assert/strict';
import * as v from 'valibot';
import { ThreadSchema } from '../../../api/threads/schema.js';
import type { ThreadExchange, ThreadTranscript } from '../../../core/threads/index.js';

const exchange: ThreadExchange = {
  messageId: 'm1',
  question: 'How do I install it?',
  answer: 'Run the installer.',
  sources: [{ url: 'https://docs.example.com/install', title: 'Install', path: 'install.mdx' }],
  fp: 'fp_1',
  mode: 'model',
  outcome: 'complete',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:02.000Z',
};

describe('thread shape', () => {
  it('answers a transcript the API schema (the served document’s) accepts as it is, the key’s hash left out', () => {
    const transcript: ThreadTranscript = {
      threadId: 't1',
      orgId: 'acme',
      domainId: 'docs',
      keyHash: 'ab'.repeat(32),
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:02.000Z',
      exchanges: [exchange, { ...exchange, messageId: 'm2', mode: 'extractive', outcome: 'error', error: 'model_unavailable', sources: [] }],
    };
    const { keyHash: _, ...shown } = transcript;
    const parsed = v.safeParse(ThreadSchema, shown);
    assert.ok(parsed.success, JSON.stringify(parsed.issues));
    assert.deepEqual(parsed.output, shown);
    assert.equal('keyHash' in ThreadSchema.entries, false);
  });
});
