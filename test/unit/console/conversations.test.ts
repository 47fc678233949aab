import assert from 'node:assert/strict';
import { citedSources, conversationRows } from '../../../console/data/conversations.js';
import { shownAnswer, threadTurns } from '../../../console/data/thread-turns.js';
import type { Conversation, Feedback, ThreadResponse } from '../../../console/data/shapes.js';

const conversation = (id: string, timestamp: string, extra: Partial<Conversation> = {}): Conversation => ({
  id,
  timestamp,
  query: `question ${id}`,
  response: `answer ${id}`,
  sources: [],
  resolutionStatus: 'unanswered',
  queryCategory: null,
  responseType: 'model',
  unansweredReason: 'no_passages',
  pageUrl: null,
  threadId: 'thr_1',
  surface: 'assistant',
  callerKind: 'browser',
  fp: null,
  ...extra,
});
const rating = (messageId: string, helpful: boolean, comment: string | null = null): Feedback => ({
  id: messageId,
  messageId,
  path: '/x',
  comment,
  createdAt: '2026-11-21T00:00:00Z',
  source: 'contextual',
  status: 'pending',
  helpful,
  contact: null,
  threadId: 'thr_1',
  query: null,
});

describe('console data layer: conversations and threads', () => {
  const list = [conversation('msg_a', '2026-11-21T10:00:00Z'), conversation('msg_b', '2026-11-21T12:00:00Z', { resolutionStatus: 'unanswered' }), conversation('msg_c', '2026-11-21T11:00:00Z')];
  const ratings = [rating('msg_a', true), rating('msg_b', false, 'wrong page')];

  it('joins each conversation to its rating, newest first, and filters by feedback', () => {
    const all = conversationRows(list, ratings, 'all');
    assert.deepEqual(
      all.map((r) => [r.id, r.rating, r.resolution]),
      [
        ['msg_b', 'down', 'unanswered'],
        ['msg_c', null, 'unanswered'],
        ['msg_a', 'up', 'unanswered'],
      ],
    );
    assert.deepEqual(conversationRows(list, ratings, 'up').map((r) => r.id), ['msg_a']);
    assert.deepEqual(conversationRows(list, ratings, 'down').map((r) => [r.id, r.comment]), [['msg_b', 'wrong page']]);
    assert.deepEqual(conversationRows(list, ratings, 'none').map((r) => r.id), ['msg_c']);
  });

  it("reads Mintlify's thread (messages) and gives each answer its sources and rating", () => {
    const thread: ThreadResponse = {
      threadId: 'thr_1',
      createdAt: '2026-11-21T10:00:00Z',
      messages: [
        { id: 'msg_a:q', role: 'user', content: 'How do I deploy?', createdAt: '2026-11-21T10:00:00Z' },
        { id: 'msg_a', role: 'assistant', content: 'Run deploy [1].', createdAt: '2026-11-21T10:00:01Z' },
      ],
    };
    const sources = [{ title: 'Deploy', url: 'https://docs.example.com/deploy' }];
    const turns = threadTurns(thread, [...ratings, { ...rating('msg_a', false), threadId: 'thr_other' }], [conversation('msg_a', '2026-11-21T10:00:01Z', { sources, resolutionStatus: 'answered' })]);
    assert.deepEqual(
      turns.map((t) => [t.role, t.content, t.sources, t.resolution, t.rating]),
      [
        ['user', 'How do I deploy?', [], null, null],
        ['assistant', 'Run deploy [1].', sources, 'answered', 'up'],
      ],
    );
  });

  it('prefers the sources and rating a message carries itself (null: not rated)', () => {
    const sources = [{ title: 'Webhooks', url: 'https://docs.example.com/webhooks' }];
    const thread: ThreadResponse = {
      threadId: 'thr_1',
      createdAt: '2026-11-21T10:00:00Z',
      messages: [
        { id: 'msg_a:user', role: 'user', content: 'q', createdAt: '2026-11-21T10:00:00Z' },
        { id: 'msg_a', role: 'assistant', content: 'a [1]', createdAt: '2026-11-21T10:00:01Z', sources, feedback: { helpful: false, comment: 'old', createdAt: '2026-11-21T10:01:00Z' } },
        { id: 'msg_b', role: 'assistant', content: 'b', createdAt: '2026-11-21T10:00:02Z', sources: [], feedback: null },
      ],
    };
    // The listing says otherwise; the message's own word wins.
    const turns = threadTurns(thread, ratings, [conversation('msg_a', '2026-11-21T10:00:01Z', { sources: [] })]);
    assert.deepEqual(turns.map((t) => [t.id, t.sources, t.rating, t.comment]), [
      ['msg_a:user', [], null, null],
      ['msg_a', sources, 'down', 'old'],
      ['msg_b', [], null, null],
    ]);
    assert.ok(turns.every((t) => !('feedback' in t)));
  });

  it("takes an answer's status from the listing's answer; an answer that found nothing cites none of the pages searched", () => {
    const sources = [{ title: 'Keys', url: 'https://docs.example.com/keys' }];
    const thread: ThreadResponse = {
      threadId: 'thr_1',
      createdAt: '2026-11-21T10:00:00Z',
      messages: [
        { id: 'msg_b:user', role: 'user', content: 'Rotate keys?', createdAt: '2026-11-21T12:00:00Z' },
        { id: 'msg_b', role: 'assistant', content: 'I could not find that.', createdAt: '2026-11-21T12:00:02Z' },
      ],
    };
    const answer = threadTurns(thread, ratings, [conversation('msg_b', '2026-11-21T12:00:00Z', { sources, resolutionStatus: 'unanswered' })])[1];
    assert.deepEqual([answer?.sources, answer?.resolution, answer?.rating, answer?.comment], [[], 'unanswered', 'down', 'wrong page']);
  });

  it('shows an answer as the reader saw it, rendered as the widget renders it, with only the sources it cites in the order it numbers them', () => {
    const sources = ['install', 'upgrade', 'webhooks'].map((p) => ({ title: p, url: `https://docs.example.com/${p}` }));
    const stored = 'Install with npm [[1]](https://docs.example.com/install) and check the version [3].\n\n```suggestions\n(Upgrade)[/upgrade]\n```\n';
    const { html, cited } = shownAnswer(stored, sources, 'https://docs.example.com/');
    assert.deepEqual([...html.matchAll(/class="cite"[^>]*>\[(\d)\]/g)].map((m) => m[1]), ['1', '2'], 'citations numbered as the widget numbers them');
    assert.doesNotMatch(html, /```|\]\(https?:/);
    assert.match(html, /<nav class="suggestions"[^>]*><ul><li><a href="https:\/\/docs\.example\.com\/upgrade"/, 'related pages on the docs site, not the console');
    assert.deepEqual(cited.map((s) => s.title), ['install', 'webhooks']);
    assert.deepEqual(citedSources(stored, sources).map((s) => s.title), ['install', 'webhooks']);
    const rows = conversationRows([conversation('msg_x', '2026-11-21T10:00:00Z', { response: stored, sources })], [], 'all');
    assert.equal(rows[0]?.sources.length, 2, 'the listing counts the cited sources');
  });

  it('lets no HTML of an answer through, and links no javascript: or image', () => {
    const { html } = shownAnswer('_Note_ <script>alert(1)</script> <img src=x onerror=alert(2)> ![pixel](https://t.example/p.gif) [x](javascript:alert(3))', [], undefined);
    assert.match(html, /<em>Note<\/em> &lt;script&gt;alert\(1\)&lt;\/script&gt; &lt;img src=x onerror=alert\(2\)&gt;/);
    assert.match(html, /<a href="https:\/\/t\.example\/p\.gif"[^>]*>pixel<\/a>/, 'an image as a link to it');
    assert.doesNotMatch(html, /<img|<script|href="javascript/);
  });
});
