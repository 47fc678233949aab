/**
 * The answer eval in CI: every default answer set (English, German, French, and a site in eight
 * languages) asked through the API's answer service over keyword retrieval, as `npm run
 * eval:answers` does, against the figures
 * `npm run eval:answers -- --record` last wrote to eval/answer-figures.json. A share of answers
 * stating the fact or citing an expected page that falls below its record fails, as does a share
 * of refusals that rises above it, or a share of questions the docs do not answer declined that falls.
 */
import assert from 'node:assert/strict';
import { answerFiguresOf, answerRegressions, DEFAULT_ANSWER_SETS, evaluateAnswers, readAnswerFigures, readAnswerQuestions } from '../../../eval/index.js';
import { tempDir } from '../../support/services.js';

describe('answer eval on the default sets, against the recorded figures', function () {
  // Keyword retrieval and no model: the four sets take a few seconds.
  this.timeout(120_000);

  it('no set states the fact, cites a page or declines an unanswerable question less often, or refuses more often, than recorded, on either split', async () => {
    const recorded = await readAnswerFigures();
    const problems: string[] = [];
    for (const set of DEFAULT_ANSWER_SETS) {
      const before = recorded[set.name];
      assert.ok(before?.dev && before.test, `eval/answer-figures.json records ${set.name} on both splits`);
      const outcomes = await evaluateAnswers(set.docs, await readAnswerQuestions(set.questions), await tempDir(), set.language);
      // The recorded figures are keyword retrieval's: no answer's search may have ranked any other way
      // (a question the docs do not answer may find nothing, which ranks no way).
      const modes = new Set(outcomes.map((o) => o.retrieval).filter((mode) => mode !== undefined));
      assert.deepEqual([...modes], ['keyword'], `${set.name}: every answer's search that found pages ranks by keyword`);
      // Exact: keyword retrieval and the extractive answer do not depend on the machine.
      problems.push(...answerRegressions(before, answerFiguresOf(outcomes)).map((p) => `${set.name}: ${p}`));
    }
    assert.deepEqual(problems, []);
  });
});
