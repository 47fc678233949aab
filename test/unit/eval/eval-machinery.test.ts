import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  Bm25PageIndex,
  evaluateCorpus,
  firstRelevantRank,
  rankedPages,
  readQuestions,
  readWholePages,
  scoreRanks,
  scoreSplits,
  splitOf,
} from '../../../eval/index.js';
import { tempDir } from '../../support/services.js';

async function writeFiles(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  for (const [file, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await fs.writeFile(path.join(dir, file), text);
  }
  return dir;
}

/** Three pages whose rankings can be worked out by hand. */
const TINY_SITE = {
  'docs.json': JSON.stringify({ name: 'Tiny', navigation: { groups: [{ group: 'All', pages: ['alpha', 'bravo', 'charlie'] }] } }),
  'alpha.mdx': '---\ntitle: Alpha\n---\n\nThe alpha page covers delta delta delta handling in depth for operators.\n',
  'bravo.mdx': '---\ntitle: Bravo\n---\n\nThe bravo page covers delta handling once for every operator here.\n',
  'charlie.mdx': '---\ntitle: Charlie\n---\n\nThe charlie page covers echo handling for operators of the system.\n',
};

const TINY_QUESTIONS = [
  { q: 'alpha', pages: ['/alpha'], split: 'dev' },
  { q: 'bravo', pages: ['bravo.mdx'], split: 'dev' },
  { q: 'xyzzy', pages: ['/charlie'], split: 'test' },
  { q: 'delta', pages: ['/bravo'], split: 'test' },
];

describe('retrieval eval machinery', () => {
  it('counts a page once and scores recall@5 and MRR@10 from the first answering page', () => {
    const ranked = rankedPages(['/a', '/a', '/b', '/a', '/c']);
    assert.deepEqual(ranked, ['/a', '/b', '/c']);
    assert.equal(firstRelevantRank(ranked, ['/c', '/b'], 10), 2);
    assert.equal(firstRelevantRank(ranked, ['/z'], 10), 0);
    assert.equal(firstRelevantRank(ranked, ['/c'], 2), 0, 'beyond the depth counts as absent');
    const scores = scoreRanks([1, 2, 0, 6, 11]);
    assert.equal(scores.questions, 5);
    assert.equal(scores.recallAt5, 2 / 5);
    assert.ok(Math.abs(scores.mrrAt10 - (1 + 1 / 2 + 1 / 6) / 5) < 1e-12);
  });

  it('scores BM25 with k1 = 1.2, b = 0.75 as worked out by hand', () => {
    const bm25 = new Bm25PageIndex([
      { path: '/a', title: 'a', body: 'x y' },
      { path: '/b', title: 'b', body: 'x x z z z' },
    ]);
    // "y": N = 2, n = 1 → idf = ln 2; page a has 3 tokens, average 4.5 → 2.2·ln2 / (1 + 1.2·(0.25 + 0.75·3/4.5)).
    const [top, ...rest] = bm25.search('Y?', 10);
    assert.equal(top?.path, '/a');
    assert.ok(Math.abs((top?.score ?? 0) - (2.2 * Math.LN2) / 1.9) < 1e-12);
    assert.equal(rest.length, 0, 'a page without the term is not ranked');
  });

  it('runs Quire keyword-only and the baseline over a corpus without an embedder and reports both splits', async () => {
    const docs = await writeFiles(TINY_SITE);
    const file = path.join(await writeFiles({ 'q.json': JSON.stringify(TINY_QUESTIONS) }), 'q.json');
    const run = await evaluateCorpus(docs, await readQuestions(file), await tempDir());
    assert.equal(run.quireIndex.pages, 3);
    assert.equal(run.baselinePages, 3);
    assert.deepEqual(run.outcomes.map((o) => o.answers.bm25?.rank), [1, 1, 0, 2], 'delta: alpha says it three times, bravo once');
    assert.ok(run.outcomes.every((o) => !o.answers.hybrid && !o.answers.dense), 'no embedder: no hybrid or dense ranking');
    const quireRanks = run.outcomes.map((o) => o.answers.keyword?.rank);
    assert.deepEqual(quireRanks.slice(0, 3), [1, 1, 0]);
    assert.ok(quireRanks[3] === 1 || quireRanks[3] === 2, 'both pages mention delta');
    const [dev, test] = scoreSplits(run.outcomes);
    assert.deepEqual(dev, {
      split: 'dev',
      scores: { keyword: { questions: 2, recallAt5: 1, mrrAt10: 1 }, bm25: { questions: 2, recallAt5: 1, mrrAt10: 1 } },
    });
    assert.deepEqual(test?.scores.bm25, { questions: 2, recallAt5: 0.5, mrrAt10: 0.25 });
    assert.equal(test?.scores.keyword?.recallAt5, 0.5);
  });

  it('inlines imported snippets into the baseline page and skips the snippets folder', async () => {
    const docs = await writeFiles({
      'page.mdx': "---\ntitle: Page\ndescription: About installing\n---\nimport Install from '/snippets/install.mdx';\n\n<Install />\n",
      'snippets/install.mdx': 'Run brew install tiny.\n',
    });
    const pages = await readWholePages(docs);
    assert.deepEqual(pages.map((p) => p.path), ['/page']);
    assert.match(pages[0]?.body ?? '', /About installing[\s\S]*brew install tiny/);
    assert.doesNotMatch(pages[0]?.body ?? '', /import Install/);
  });

  it('splits questions by a hash of their text, about half each way', async () => {
    assert.equal(splitOf('how do i add a flag'), splitOf('  how do i add a flag '));
    const splits = Array.from({ length: 400 }, (_, i) => splitOf(`question number ${i}`));
    const dev = splits.filter((s) => s === 'dev').length;
    assert.ok(dev > 140 && dev < 260, `${dev} of 400 in dev`);
    const file = path.join(await writeFiles({ 'q.json': JSON.stringify([{ q: 'x', pages: ['/a/index.mdx'], tags: ['typo'] }]) }), 'q.json');
    const [question] = await readQuestions(file);
    assert.deepEqual(question, { q: 'x', pages: ['/a'], tags: ['typo'], split: splitOf('x') });
  });

  it('rejects a malformed question file with the file and the broken entry', async () => {
    const dir = await writeFiles({ 'bad.json': JSON.stringify([{ q: 'fine', pages: ['/a'] }, { q: 'no pages', pages: [] }]) });
    await assert.rejects(readQuestions(path.join(dir, 'bad.json')), /bad\.json.*1\.pages/);
  });
});
