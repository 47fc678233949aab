import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { analyticsCommand, parseSince } from '../../../infra/cli/analytics-command.js';
import { UsageError } from '../../../infra/cli/context.js';
import { testConfig, testPlatform } from '../../support/services.js';
import { answer } from './answer-fixture.js';

const HOUR = 3_600_000;

describe('quire analytics DOMAIN', () => {
  it('reads --since as hours, days or weeks and refuses anything else', () => {
    assert.equal(parseSince('24h'), 24 * HOUR);
    assert.equal(parseSince('7d'), 7 * 24 * HOUR);
    assert.equal(parseSince('2w'), 14 * 24 * HOUR);
    for (const bad of ['7', '0d', '-1d', '1y', 'week']) assert.throws(() => parseSince(bad), UsageError, bad);
  });

  it('prints answered vs unanswered, the top categories, the top gaps and the feedback ratio of the period', async () => {
    const platform = await testPlatform(await testConfig());
    const { tenants, analyticsStore: store, analytics: recorder } = platform;
    await tenants.addOrg('acme');
    await tenants.putDomain({ id: 'docs', orgId: 'acme', source: '.', docsPath: '', baseUrl: 'https://docs.example.com', includeHidden: false });
    const now = Date.now();
    const unanswered = { resolution: 'unanswered' as const, unansweredReason: 'no_passages' as const, category: null, sources: [] };
    recorder.record({ kind: 'answer', record: answer('a1', now - HOUR) });
    recorder.record({ kind: 'answer', record: answer('a2', now - 2 * HOUR, { category: 'api' }) });
    recorder.record({ kind: 'answer', record: answer('a3', now - 3 * HOUR, { question: 'How do I rotate my API key?', ...unanswered }) });
    recorder.record({ kind: 'answer', record: answer('a4', now - 4 * HOUR, { question: 'rotating API keys', ...unanswered }) });
    // Older than --since 1d: left out.
    recorder.record({ kind: 'answer', record: answer('old', now - 3 * 24 * HOUR, { question: 'ancient question', ...unanswered }) });
    await recorder.tick();
    await store.putFeedback({ domainId: 'docs', messageId: 'a1', threadId: 't1', helpful: true, comment: null, at: now - HOUR });
    await store.putFeedback({ domainId: 'docs', messageId: 'a2', threadId: 't1', helpful: false, comment: null, at: now - HOUR });

    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    assert.equal(await analyticsCommand(['docs', '--since', '1d'], { ...platform, out }), 0);
    assert.match(text, /answers {5}4: 2 answered \(50%\), 2 unanswered \(50%\)/);
    assert.match(text, /feedback {4}2 ratings: 1 helpful \(50%\), 1 not helpful/);
    assert.match(text, /top categories:\n\s+2 {2}\(no source\) {2}\(2 unanswered\)\n\s+1 {2}api/);
    // The two rotation questions make one gap; the answer rated not helpful ('question a2') another.
    assert.match(text, /top gaps:\n\s+2 {2}[^\n]*rotat[^\n]*\[gap_[0-9a-f]+\]\n {10}Add a page that answers the readers' questions about[^\n]*\n\s+1 {2}question/);
    assert.doesNotMatch(text, /ancient/);
    await assert.rejects(analyticsCommand(['nope'], { ...platform, out }), /unknown domain 'nope'/);
  });
});
