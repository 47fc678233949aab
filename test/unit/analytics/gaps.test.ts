import assert from 'node:assert/strict';
import { coverageGaps, questionTerms, type GapQuestion } from '../../../core/analytics/index.js';
import { answer } from './answer-fixture.js';

const INSTALL = { title: 'Installation', url: 'https://docs.example.com/guides/install#windows', path: '/guides/install' };
const WIDGET = { title: 'Widget', url: 'https://docs.example.com/widget', path: '/widget' };

let n = 0;
const q = (question: string, over: { notHelpful?: boolean; sources?: Array<typeof INSTALL> } = {}): GapQuestion => {
  n += 1;
  return {
    record: answer(`q${n}`, Date.UTC(2026, 0, 1) + n * 1000, { question, sources: over.sources ?? [], resolution: over.notHelpful ? 'answered' : 'unanswered' }),
    notHelpful: over.notHelpful ?? false,
  };
};

describe('coverage gaps', () => {
  // The questions and the expected grouping were written before the clustering ran.
  const questions = [
    q('How do I rotate my API key?'),
    q('Rotating API keys without downtime', { sources: [INSTALL] }),
    q('can I rotate an api key automatically', { notHelpful: true, sources: [INSTALL] }),
    q('Is there a dark mode for the widget?', { sources: [WIDGET] }),
    q('dark mode widget theme'),
    q('What is the SLA for enterprise plans?'),
  ];

  it('reduces a question to its terms: case, stop words and endings do not matter', () => {
    assert.deepEqual(questionTerms('How do I rotate my API key?').map((t) => t.stem), questionTerms('rotating API keys').map((t) => t.stem));
    assert.deepEqual(questionTerms('What is the SLA?').map((t) => t.word), ['sla']);
  });

  it('groups questions on one topic, largest gap first, with counts, samples, nearest pages and a suggestion', () => {
    const gaps = coverageGaps(questions);
    assert.deepEqual(gaps.map((g) => g.count), [3, 2, 1]);
    const [keys, widget, sla] = gaps;
    assert.deepEqual([...(keys?.questions ?? [])].sort(), ['How do I rotate my API key?', 'Rotating API keys without downtime', 'can I rotate an api key automatically'].sort());
    assert.deepEqual([...(keys?.topic ?? [])].sort(), ['api', 'key', 'rotate'].sort());
    assert.equal(keys?.unanswered, 2);
    assert.equal(keys?.notHelpful, 1);
    assert.deepEqual(keys?.pages, [{ title: 'Installation', url: 'https://docs.example.com/guides/install', path: '/guides/install' }]);
    assert.match(keys?.suggestion ?? '', /^Extend "Installation" \(\/guides\/install\)/);
    assert.deepEqual(widget?.pages.map((p) => p.path), ['/widget']);
    assert.deepEqual(sla?.questions, ['What is the SLA for enterprise plans?']);
    assert.deepEqual(sla?.pages, []);
    assert.match(sla?.suggestion ?? '', /^Add a page about /);
  });

  it('does not chain topics: a question joins a gap by its resemblance to the gap’s first question', () => {
    // Keys ~ keys-and-webhooks ~ webhook secrets, but keys and webhook secrets share nothing.
    const gaps = coverageGaps([q('How do I rotate my API key?'), q('API key for webhook signing'), q('webhook signing secret')]);
    assert.deepEqual(gaps.map((g) => g.questions.length), [2, 1]);
    assert.deepEqual(gaps[1]?.questions, ['webhook signing secret']);
  });

  it('is deterministic: the same questions in another order give the same gaps and ids', () => {
    const once = coverageGaps(questions);
    const again = coverageGaps([...questions].reverse());
    assert.deepEqual(again, once);
    assert.equal(new Set(once.map((g) => g.id)).size, 3);
  });
});
