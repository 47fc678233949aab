import assert from 'node:assert/strict';
import * as v from 'valibot';
import { parseInput } from '../../../api/validation.js';
import { QuireError } from '../../../core/errors.js';

describe('request validation messages', () => {
  const schema = v.object({ prompt: v.string('must be a string'), filter: v.optional(v.strictObject({ version: v.optional(v.string()) })) });

  it('says a field is required, or is not a field here, in words rather than valibot\'s key notation', () => {
    let err: unknown;
    try {
      parseInput(schema, { filter: { version: 'v2', tag: 'beta' } });
    } catch (e) {
      err = e;
    }
    assert.ok(err instanceof QuireError && err.status === 400);
    assert.deepEqual(err.details, [
      { path: 'prompt', message: 'is required' },
      { path: 'filter.tag', message: 'is not a field here' },
    ]);
    assert.equal(err.message, 'invalid body: prompt: is required; filter.tag: is not a field here');
  });
});
