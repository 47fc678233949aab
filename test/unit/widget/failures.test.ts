import assert from 'node:assert/strict';
import { requestFailure, streamFailure } from '../../../widget/failures.js';
import { TRANSLATIONS } from '../../../widget/translations.js';
import { ENGLISH, type WidgetWords } from '../../../widget/words.js';

/** The JSON errors of the assistant's message route a reader can meet, with their status and Retry-After. */
const REQUEST_CODES: Array<[number, string, string | null]> = [
  [400, 'invalid_request', null],
  [401, 'unauthorized', null],
  [403, 'forbidden', null],
  [404, 'not_found', null],
  [413, 'payload_too_large', null],
  [429, 'rate_limited', '20'],
  [500, 'internal', null],
  [503, 'unavailable', '5'],
  [504, 'timeout', null],
];
/** The codes of the stream's error parts (api/assistant/model-answerer.ts). */
const STREAM_CODES = ['model_rate_limited', 'model_failed', 'output_limit', 'content_filter', 'answer_failed'];

const LANGUAGES: WidgetWords[] = [ENGLISH, ...Object.values(TRANSLATIONS)];

describe('widget: a failure said in the reader\'s language', () => {
  for (const words of LANGUAGES) {
    it(`${words.lang}: a sentence of its own for every code, none of them the server's message`, () => {
      const said = [
        ...REQUEST_CODES.map(([status, code, retryAfter]) => requestFailure(words, status, { error: 'server words', code }, retryAfter).said),
        ...STREAM_CODES.map((code) => streamFailure(words, code, 'server words').said),
      ];
      for (const sentence of said) assert.doesNotMatch(sentence, /server words|HTTP/, sentence);
      // 401, 403 and 404 share one sentence (the site is set up wrong); every other code has its own.
      assert.equal(new Set(said).size, said.length - 2, said.join('\n'));
    });

    if (words !== ENGLISH) {
      it(`${words.lang}: no sentence is left in English`, () => {
        for (const [status, code, retryAfter] of REQUEST_CODES) assert.notEqual(requestFailure(words, status, { code }, retryAfter).said, requestFailure(ENGLISH, status, { code }, retryAfter).said, code);
        for (const code of STREAM_CODES) assert.notEqual(streamFailure(words, code, undefined).said, streamFailure(ENGLISH, code, undefined).said, code);
      });
    }
  }

  it('keeps the server\'s message and code apart, as the detail shown folded in English', () => {
    assert.deepEqual(requestFailure(ENGLISH, 503, { error: 'the redis is unavailable or busy; retry shortly', code: 'unavailable' }, '5'), {
      said: 'The assistant is unavailable right now; please try again in 5 seconds.',
      detail: 'the redis is unavailable or busy; retry shortly (unavailable)',
    });
    assert.deepEqual(streamFailure(ENGLISH, 'output_limit', 'The answer was cut off.'), {
      said: 'The answer was cut off: it reached the language model’s length limit.',
      detail: 'The answer was cut off. (output_limit)',
    });
  });

  it('falls back to a sentence of its own for a code it does not know: by status (429, 503), else the HTTP status; in a stream, incomplete', () => {
    const fr = TRANSLATIONS.fr!;
    assert.equal(requestFailure(fr, 418, { error: 'I am a teapot', code: 'teapot' }, null).said, 'L’assistant n’a pas pu répondre (HTTP 418).');
    assert.equal(requestFailure(fr, 502, undefined, null).said, 'L’assistant n’a pas pu répondre (HTTP 502).');
    assert.equal(requestFailure(fr, 502, undefined, null).detail, undefined, 'no body, no detail');
    assert.match(requestFailure(fr, 429, 'Too Many Requests', '30').said, /^Trop de questions pour le moment ; veuillez réessayer dans 30/);
    assert.match(requestFailure(fr, 503, { error: 'proxy down' }, null).said, /^L’assistant est indisponible pour le moment ; veuillez réessayer plus tard\.$/);
    assert.deepEqual(streamFailure(fr, undefined, 'Something broke'), { said: 'La réponse n’a pas pu être terminée.', detail: 'Something broke' });
    assert.equal(streamFailure(fr, 'brand_new_code', undefined).said, 'La réponse n’a pas pu être terminée.');
  });
});
