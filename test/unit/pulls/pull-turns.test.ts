import assert from 'node:assert/strict';
import { pullRequestBody } from '../../../activities/agent/forge/pr-body.js';
import type { PullRecord } from '../../../core/forge/index.js';
import { pullTurns } from '../../../api/pulls/turns.js';
import { cloneAddress } from '../../../api/pulls/merge-help.js';

/** A turn's text as the agent writes it, quoting the prompts the workflow names. */
const body = (turn: number, prompts: string[]) =>
  pullRequestBody({ jobId: 'j1', projectId: 'docs', branch: 'quire/j1', turn, title: 'T', summary: `Turn ${turn}.`, messageIds: [], prompts, filesChanged: ['a.mdx'], validationErrors: [], draft: false });

const pull = (bodies: string[]): PullRecord => ({
  number: 1,
  projectId: 'docs',
  jobId: 'j1',
  branch: 'quire/j1',
  base: 'main',
  title: 'T',
  body: bodies[0] ?? '',
  draft: false,
  state: 'open',
  comments: bodies.slice(1).map((b) => ({ body: b, createdAt: '2026-11-26T08:00:00.000Z' })),
  createdAt: '2026-11-26T07:00:00.000Z',
  updatedAt: '2026-11-26T08:00:00.000Z',
});

const requested = (text: string) => /### Requested\n\n([\s\S]*?)\n\n###/.exec(text)?.[1];

describe('the pull page: each turn with its own request', () => {
  it('drops the prompts the previous turn already quoted, in a sliding window too', () => {
    const turns = pullTurns(pull([body(1, ['First\n\nwith a blank line']), body(2, ['First\n\nwith a blank line', 'Second']), body(4, ['Second', 'Third'])]));
    assert.deepEqual(turns.map((t) => t.number), [1, 2, 4], 'turn numbers from the hidden markers');
    assert.deepEqual(turns.map((t) => requested(t.body)), ['> First\n> \n> with a blank line', '> Second', '> Third']);
    assert.match(turns[1]?.body ?? '', /^Turn 2\.\n\n### Requested/);
    assert.match(turns[1]?.body ?? '', /### Files changed\n\n- `a.mdx`/);
  });

  it('keeps a turn that quotes only its own prompt, even the same words again', () => {
    const turns = pullTurns(pull([body(1, ['Again']), body(2, ['Again'])]));
    assert.deepEqual(turns.map((t) => requested(t.body)), ['> Again', '> Again']);
  });

  it('shows a clone address only for a URL, without credentials', () => {
    assert.equal(cloneAddress('https://bot:secret@git.example.com/docs.git'), 'https://git.example.com/docs.git');
    assert.equal(cloneAddress('git@github.com:acme/docs.git'), 'git@github.com:acme/docs.git');
    assert.equal(cloneAddress('/srv/quire/docs.git'), undefined);
    assert.equal(cloneAddress('file:///srv/quire/docs.git'), undefined);
  });
});
