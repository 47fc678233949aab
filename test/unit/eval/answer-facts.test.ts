import assert from 'node:assert/strict';
import { comparableText, statesFact } from '../../../eval/index.js';

describe('answer eval: does an answer state the fact', () => {
  it('ignores case, runs of whitespace and line breaks', () => {
    assert.equal(statesFact('Revoke it with SKYLARK   Keys\nrevoke.', ['skylark keys revoke']), true);
  });

  it('reads through code spans, emphasis, escapes and table bars', () => {
    assert.equal(statesFact('Run `skylark keys revoke` now [1]', ['skylark keys revoke']), true);
    assert.equal(statesFact('Open **Settings → Security** [2]', ['Settings → Security']), true);
    assert.equal(statesFact('See **Rate\\_limits** [1]', ['rate_limits']), true);
    assert.equal(statesFact('| Variations per flag | 20 |', ['Variations per flag 20']), true);
    assert.equal(statesFact('Open _Settings -> Security_', ['Settings → Security']), true);
  });

  it('keeps the underscores inside a name', () => {
    assert.equal(comparableText('The API answers `rate_limited`.'), 'the api answers rate_limited .');
    assert.equal(statesFact('The API answers ratelimited.', ['rate_limited']), false);
  });

  it('does not find a phrase inside a longer word or number', () => {
    assert.equal(statesFact('Port 4430 must be open.', ['443']), false);
    assert.equal(statesFact('Die Operatoren dürfen das.', ['Operator']), false);
    assert.equal(statesFact('Port 443 must be open.', ['443']), true);
    assert.equal(statesFact('check http://localhost:8030/status', ['/status']), true);
  });

  it('finds a phrase beside Chinese, Japanese or Korean letters, which set no spaces between words', () => {
    assert.equal(statesFact('配信は最大24時間まで再送されます。', ['24時間']), true);
    assert.equal(statesFact('默认为 5 次。', ['5 次']), true);
    assert.equal(statesFact('기본값은 5회입니다.', ['5회']), true);
    assert.equal(statesFact('既定値は15回です。', ['5回']), false);
    assert.equal(statesFact('Port 4430 ist offen.', ['443']), false);
  });

  it('needs every phrase of an alternative, and any one alternative', () => {
    const fact = [['Frankfurt', 'Dublin'], 'two EU sites'];
    assert.equal(statesFact('Hosted in Frankfurt and Dublin.', fact), true);
    assert.equal(statesFact('Hosted in Frankfurt.', fact), false);
    assert.equal(statesFact('We run two EU sites.', fact), true);
  });

  it('compares accented letters in either Unicode form', () => {
    assert.equal(statesFact('Die Daten liegen in Zu\u0308rich.', ['Zürich']), true);
  });
});
