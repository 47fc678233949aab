import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { formatAnswerRun, readAnswerQuestions, scoreAnswers, splitOf, type AnswerOutcome, type AnswerQuestion } from '../../../eval/index.js';
import { tempDir } from '../../support/services.js';

async function questionFile(entries: unknown): Promise<string> {
  const file = path.join(await tempDir(), 'answers.json');
  await fs.writeFile(file, JSON.stringify(entries));
  return file;
}

/** A question of the dev split (the hash rule's), answerable or not. */
function devQuestion(unanswerable: boolean, n: number): AnswerQuestion {
  for (let i = 0; ; i++) {
    const q = `question ${n}.${i}`;
    if (splitOf(q) === 'dev') return { q, pages: unanswerable ? [] : ['/p'], expect: unanswerable ? [] : ['fact'], unanswerable, tags: [], split: 'dev' };
  }
}

function outcome(question: AnswerQuestion, o: { statesFact?: boolean; refused?: boolean; found?: boolean }): AnswerOutcome {
  const refused = o.refused ?? false;
  const answer = refused ? 'The documentation does not seem to cover this question.' : 'Something [1]';
  const statesFact = o.statesFact ?? false;
  return { question, answer, statesFact, citesPage: statesFact, retrievedPage: true, refused, baseline: '', baselineStatesFact: false, baselineDeclines: !(o.found ?? true), retrieval: 'keyword' };
}

describe('answer eval: questions the docs do not answer', () => {
  it('reads an entry marked unanswerable, with no pages nor fact, beside answerable ones', async () => {
    const file = await questionFile([
      { q: 'Which port?', pages: ['ports'], expect: ['443'] },
      { q: 'Does it speak GraphQL?', unanswerable: true, tags: ['feature'] },
    ]);
    const questions = await readAnswerQuestions(file);
    assert.deepEqual(
      questions.map(({ q, pages, expect, unanswerable, tags }) => ({ q, pages, expect, unanswerable, tags })),
      [
        { q: 'Which port?', pages: ['/ports'], expect: ['443'], unanswerable: false, tags: [] },
        { q: 'Does it speak GraphQL?', pages: [], expect: [], unanswerable: true, tags: ['feature'] },
      ],
    );
    assert.deepEqual(questions.map((q) => q.split), [splitOf('Which port?'), splitOf('Does it speak GraphQL?')]);
  });

  it('refuses an unanswerable entry that names pages, and an answerable one without them', async () => {
    await assert.rejects(readAnswerQuestions(await questionFile([{ q: 'Does it speak GraphQL?', unanswerable: true, pages: ['/api'] }])), /is not an array of/);
    await assert.rejects(readAnswerQuestions(await questionFile([{ q: 'Which port?', expect: ['443'] }])), /is not an array of/);
    await assert.rejects(readAnswerQuestions(await questionFile([{ q: 'Which port?', unanswerable: false }])), /is not an array of/);
  });

  it('scores the answerable questions as before, and apart the share of the others declined, beside the baseline', () => {
    const outcomes = [
      outcome(devQuestion(false, 1), { statesFact: true }),
      outcome(devQuestion(false, 2), { refused: true }),
      outcome(devQuestion(true, 3), { refused: true }),
      outcome(devQuestion(true, 4), { refused: true, found: false }),
      outcome(devQuestion(true, 5), {}),
      outcome(devQuestion(true, 6), {}),
    ];
    const dev = scoreAnswers(outcomes).find((s) => s.split === 'dev')!.scores;
    assert.deepEqual(
      { questions: dev.questions, statesFact: dev.statesFact, refused: dev.refused, unanswerable: dev.unanswerable, declines: dev.declines, baselineDeclines: dev.baselineDeclines },
      { questions: 2, statesFact: 0.5, refused: 0.5, unanswerable: 4, declines: 0.5, baselineDeclines: 0.25 },
    );
    const report = formatAnswerRun('set', outcomes);
    assert.match(report, /\| dev \| 2 \| 0\.500 \| 0\.500 \| 0\.500 \| 0\.000 \| 1\.000 \| 4 \| 0\.500 \| 0\.250 \|/);
    assert.match(report, /dev answers without the expected fact \(1;/, 'an unanswerable question is no miss of a fact');
    assert.match(report, /dev questions the docs do not answer, answered anyway \(2\):\n- question 5\.\d+\n {2}answer: Something \[1\]\n- question 6\./);
  });
});
