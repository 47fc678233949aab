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
    assert.equal(sla?.suggestion, `Add a page that answers the readers' questions about ${sla?.topic.slice(0, -1).join(', ')} and ${sla?.topic.at(-1)}.`);
  });

  it('does not suggest extending a page a question shares no word with: the extractive answer found none that meets it', () => {
    const asked = (id: string, question: string, unansweredReason: 'no_match' | 'no_citation'): GapQuestion => ({
      record: answer(id, Date.UTC(2026, 0, 3) + Number(id.slice(1)) * 1000, { question, sources: [INSTALL], resolution: 'unanswered', unansweredReason }),
      notHelpful: false,
    });
    const [unmatched] = coverageGaps([asked('m1', 'Can I pay with PayPal?', 'no_match'), asked('m2', 'paying by paypal', 'no_match')]);
    assert.equal(unmatched?.count, 2);
    assert.deepEqual(unmatched?.pages, []);
    assert.match(unmatched?.suggestion ?? '', /^Add a page that answers the readers' questions about /);
    // A model that cited none of the passages it was given was still given the nearest pages the search found.
    const [uncited] = coverageGaps([asked('m3', 'Can I pay with PayPal?', 'no_citation')]);
    assert.deepEqual(uncited?.pages.map((p) => p.path), ['/guides/install']);
  });

  it('gives each example question the newest thread that asked it, null when only a door without threads did', () => {
    const at = (minute: number) => Date.UTC(2026, 0, 2) + minute * 60_000;
    const asked = (id: string, minute: number, question: string, threadId: string | null): GapQuestion => ({
      record: answer(id, at(minute), { question, threadId, resolution: 'unanswered' }),
      notHelpful: false,
    });
    const [gap, ...others] = coverageGaps([
      asked('e1', 1, 'export billing invoices', 'thr_old'),
      asked('e2', 2, 'export billing invoices', 'thr_new'),
      // Asked again through the OpenAI-compatible door: the thread that asked it still links it.
      asked('e3', 3, 'export billing invoices', null),
      asked('e4', 4, 'export invoices billing csv', null),
    ]);
    assert.equal(others.length, 0);
    assert.deepEqual(gap?.examples, [
      { question: 'export invoices billing csv', threadId: null },
      { question: 'export billing invoices', threadId: 'thr_new' },
    ]);
    assert.deepEqual(gap?.questions, gap?.examples.map((e) => e.question));
  });

  it('links questions into connected groups whatever order they came in', () => {
    // "webhook retries signing secret" links the other two; asked first or last, it makes one gap.
    const asked = ['webhook retries', 'webhook retries signing secret', 'signing secret rotation'];
    const bridgeLast = coverageGaps([asked[0]!, asked[2]!, asked[1]!].map((text) => q(text)));
    const bridgeFirst = coverageGaps([asked[1]!, asked[0]!, asked[2]!].map((text) => q(text)));
    for (const gaps of [bridgeLast, bridgeFirst]) assert.deepEqual(gaps.map((g) => [...g.questions].sort()), [[...asked].sort()]);
  });

  it('keeps short acronyms as terms: "set up CI" and "set up SSO" are two topics', () => {
    assert.deepEqual(questionTerms('How do I configure CI/CD on S3? I tried').map((t) => t.stem), ['configur', 'ci', 'cd', 's3', 'tri']);
    const gaps = coverageGaps(['How do I set up SSO?', 'How do I set up CI?', 'How do I set up a VPN?', 'How do I set up DNS?'].map((text) => q(text)));
    assert.deepEqual(gaps.map((g) => g.count), [1, 1, 1, 1]);
  });

  it('does not group by the words most questions of the period share: function words of any language, generic verbs', () => {
    for (const asked of [
      ['Wie rotiere ich den API-Schlüssel?', 'Wie lösche ich den Account?', 'Wie ändere ich den Benutzernamen?'],
      ['Comment est-ce que je change le mot de passe ?', 'Comment est-ce que je supprime le compte ?'],
      ['¿Cómo puedo cambiar la contraseña de la cuenta?', '¿Cómo puedo borrar la cuenta de facturación?'],
      ['How do I add a custom domain?', 'How do I add a custom font?', 'How do I add a custom logo?'],
    ]) {
      assert.deepEqual(coverageGaps(asked.map((text) => q(text))).map((g) => g.count), asked.map(() => 1), asked[0]);
    }
    // The topic's words are the ones that tell it apart, not the ones every question has.
    const [german] = coverageGaps([q('Wie rotiere ich den API-Schlüssel?'), q('Wie rotiere ich den API-Schlüssel sicher?'), q('Wie lösche ich den Account?')]);
    assert.deepEqual(german?.topic.slice(0, 2).sort(), ['api-schlüssel', 'rotiere']);
  });

  it('groups Chinese, Japanese and Korean questions by the words inside them, written without spaces or with particles', () => {
    const asked = ['APIキーをローテーションするには？', 'APIキーのローテーション方法', 'ダークモードはありますか', '如何轮换API密钥？', 'API密钥如何轮换', '웹훅 서명을 검증하는 방법', '웹훅 서명 검증 방법'];
    const grouped = coverageGaps(asked.map((text) => q(text))).map((g) => [...g.questions].sort().join(' | '));
    assert.deepEqual(grouped.sort(), [[0, 1], [2], [3, 4], [5, 6]].map((ids) => ids.map((i) => asked[i]!).sort().join(' | ')).sort());
  });

  it('keeps a gap’s id as questions join it, and answers to the ids of the gaps that merged into it', () => {
    const first = q('How do I rotate the admin API key for staging?');
    const [alone] = coverageGaps([first]);
    // Later questions make "rotate, api, key" the topic; the gap is still named by its first question.
    const [grown] = coverageGaps([first, q('rotate api key'), q('rotating api keys safely')]);
    assert.deepEqual([grown?.count, grown?.id], [3, alone?.id]);

    const retries = q('webhook retries');
    const signing = q('signing secret rotation');
    const apart = coverageGaps([retries, signing]);
    assert.equal(apart.length, 2);
    const [merged] = coverageGaps([retries, signing, q('webhook retries signing secret')]);
    assert.equal(merged?.id, apart.find((g) => g.questions[0] === 'webhook retries')?.id, 'the earliest question names it');
    for (const before of apart) assert.ok(merged?.aliases.includes(before.id), before.id);
  });

  it('is deterministic: the same questions in another order give the same gaps and ids', () => {
    const once = coverageGaps(questions);
    const again = coverageGaps([...questions].reverse());
    assert.deepEqual(again, once);
    assert.equal(new Set(once.map((g) => g.id)).size, 3);
  });
});
