import assert from 'node:assert/strict';
import { answerEvalOptions, DEFAULT_ANSWER_SETS, formatAnswerRun, type AnswerOutcome } from '../../../eval/index.js';

function outcome(split: 'dev' | 'test', retrieval: AnswerOutcome['retrieval']): AnswerOutcome {
  const question = { q: 'Which port?', pages: ['/ports'], expect: ['443'], unanswerable: false, tags: [], split };
  return { question, answer: 'Port 443 [1]', statesFact: true, citesPage: true, retrievedPage: true, refused: false, baseline: '', baselineStatesFact: false, baselineDeclines: false, retrieval };
}

describe('answer eval: --embedder', () => {
  it('retrieves by keyword unless told otherwise, over the default sets', () => {
    assert.deepEqual(answerEvalOptions([]), { sets: DEFAULT_ANSWER_SETS, record: false, embedder: 'none' });
    assert.equal(answerEvalOptions(['--embedder', 'local']).embedder, 'local');
    assert.equal(answerEvalOptions(['--embedder', 'none', '--record']).record, true);
  });

  it('refuses another embedder, and recording hybrid figures over the keyword ones CI checks', () => {
    assert.throws(() => answerEvalOptions(['--embedder', 'openai']), /--embedder must be none or local/);
    assert.throws(() => answerEvalOptions(['--embedder', 'local', '--record']), /does not go with --embedder local/);
    assert.throws(() => answerEvalOptions(['--embedder', 'local', '--record', '--corpus', 'docs', '--questions', 'q.json']), /does not go with --embedder local/);
    assert.throws(() => answerEvalOptions(['--english']), /--english is the retrieval eval's/);
    assert.throws(() => answerEvalOptions(['--corpus', 'docs']), /give both --corpus DIR and --questions FILE/);
    assert.deepEqual(answerEvalOptions(['--corpus', 'docs', '--questions', 'sets/q.json', '--language', 'de']).sets.map((s) => [s.name, s.language]), [['q', 'de']]);
  });

  it('labels the report with the retrieval, and counts how each answer\'s search ranked', () => {
    const keyword = formatAnswerRun('set', [outcome('dev', 'keyword'), outcome('test', 'keyword')]);
    assert.match(keyword, /^set: extractive answers over keyword retrieval\nanswers' retrieval: keyword 2\n/);
    const hybrid = formatAnswerRun('set', [outcome('dev', 'hybrid'), outcome('dev', 'keyword-fallback'), outcome('test', 'hybrid'), outcome('test', undefined)], 'local');
    assert.match(hybrid, /^set: extractive answers over hybrid retrieval \(local embedder\)\nanswers' retrieval: hybrid 2, keyword-fallback 1, none 1\n/);
  });
});
