import assert from 'node:assert/strict';
import { answerRegressions, type AnswerSetFigures } from '../../../eval/index.js';

const RECORDED: AnswerSetFigures = {
  dev: { questions: 10, statesFact: 0.8, citesPage: 0.9, refused: 0.1, unanswerable: 4, declines: 0.5 },
  test: { questions: 8, statesFact: 0.75, citesPage: 1, refused: 0, unanswerable: 3, declines: 0.3333 },
};

describe('answer eval: figures against their record', () => {
  it('accepts figures equal to or better than the record', () => {
    assert.deepEqual(answerRegressions(RECORDED, RECORDED), []);
    const better: AnswerSetFigures = { ...RECORDED, dev: { questions: 10, statesFact: 0.9, citesPage: 1, refused: 0, unanswerable: 4, declines: 0.75 } };
    assert.deepEqual(answerRegressions(RECORDED, better), []);
  });

  it('names the split and figure that fell, and refusals that rose', () => {
    const worse: AnswerSetFigures = {
      dev: { questions: 10, statesFact: 0.7, citesPage: 0.9, refused: 0.2, unanswerable: 4, declines: 0.5 },
      test: { questions: 8, statesFact: 0.75, citesPage: 0.875, refused: 0, unanswerable: 3, declines: 0.3333 },
    };
    assert.deepEqual(answerRegressions(RECORDED, worse), [
      'dev statesFact: 0.7 < recorded 0.8',
      'dev refused: 0.2 > recorded 0.1',
      'test citesPage: 0.875 < recorded 1',
    ]);
  });

  it('names a fall in the share of unanswerable questions declined', () => {
    const fewer: AnswerSetFigures = { ...RECORDED, dev: { ...RECORDED.dev!, declines: 0.25 } };
    assert.deepEqual(answerRegressions(RECORDED, fewer), ['dev declines: 0.25 < recorded 0.5']);
  });

  it('asks for a new record when the question count changed', () => {
    const more: AnswerSetFigures = { ...RECORDED, test: { ...RECORDED.test!, questions: 9, statesFact: 0.78 } };
    assert.deepEqual(answerRegressions(RECORDED, more), ['test: 9 questions, recorded over 8 (record again)']);
    const moreUnanswerable: AnswerSetFigures = { ...RECORDED, test: { ...RECORDED.test!, unanswerable: 4, declines: 0.5 } };
    assert.deepEqual(answerRegressions(RECORDED, moreUnanswerable), ['test: 4 unanswerable questions, recorded over 3 (record again)']);
  });
});
