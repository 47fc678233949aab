/**
 * The CI-sized retrieval eval: the example docs with their keyword and
 * paraphrase question sets, every engine (keyword, hybrid with the local
 * embedder that infra/setup.sh --test installs, page vectors alone, BM25),
 * against the figures `npm run eval -- --record` last wrote to
 * eval/figures.json. A drop below them fails.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { evaluateCorpus, figuresOf, readFigures, readQuestions, regressions } from '../../../eval/index.js';
import { localEmbedderFiles, startLocalEmbedder } from '../../../infra/embedder.js';
import { freePort } from '../../support/redis.js';
import { chunkEmbeddingOf, tempDir, testConfig } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const SETS = ['example-docs', 'example-docs-semantic'];

describe('retrieval eval on the example docs, against the recorded figures', function () {
  this.timeout(600_000);

  it('no engine falls below its recorded recall@5 or MRR@10, on either split', async () => {
    const work = await tempDir();
    const port = await freePort();
    const server = await startLocalEmbedder({ ...localEmbedderFiles(REPO_ROOT), port, logFile: path.join(work, 'embedder.log') });
    onSuiteEnd(() => server.stop());
    // The worker's embedding of chunks, as its platform opens it over the local embedder.
    const embedding = await chunkEmbeddingOf(await testConfig({ QUIRE_EMBEDDER: 'local', QUIRE_EMBEDDER_PORT: String(port) }));
    assert.ok(embedding, 'the local embedder is configured');
    const named = await Promise.all(SETS.map(async (name) => ({ name, questions: await readQuestions(path.join(REPO_ROOT, 'eval', 'questions', `${name}.json`)) })));
    const run = await evaluateCorpus(path.join(REPO_ROOT, 'infra', 'example-docs'), named.flatMap((n) => n.questions), work, { ...embedding, batchSize: 16 });
    const recorded = await readFigures();
    let from = 0;
    const problems: string[] = [];
    for (const { name, questions } of named) {
      const current = figuresOf(run.outcomes.slice(from, (from += questions.length)));
      const before = recorded[name];
      assert.ok(before?.dev?.hybrid && before.test?.keyword, `eval/figures.json records ${name} with every engine`);
      // One question's worth of slack for the vector engines: quantised arithmetic may differ by CPU.
      const slack = Math.max(1 / (before.dev.hybrid.questions || 1), 1 / (before.test.keyword.questions || 1));
      problems.push(...regressions(before, current, { hybrid: slack, dense: slack }).map((p) => `${name}: ${p}`));
    }
    assert.deepEqual(problems, []);
  });
});
