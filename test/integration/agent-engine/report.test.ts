/**
 * What a turn says it did (summary, plan, stop reason) and the repository's instruction files,
 * through the agent activity in the SDK's real activity context, against a real bare repository;
 * the scripted Chat Completions server stands in for the model provider.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { PullStore } from '../../../core/forge/index.js';
import { MAX_TODOS } from '../../../core/jobs/index.js';
import type { RecordedRequest } from '../../fakes/chat-completions-server.js';
import { tempDir } from '../../support/services.js';
import { engineFixture } from './setup.js';

const plan = (statuses: Array<'pending' | 'in_progress' | 'completed'>) => ({
  toolCalls: [
    {
      name: 'todo_write',
      arguments: { todos: [{ id: '1', content: 'Rename widget on page 2', status: statuses[0] }, { id: '2', content: 'Check the navigation', status: statuses[1] }] },
    },
  ],
});
const systemOf = (req: RecordedRequest | undefined) => String(req?.body.messages[0]?.content);
const toolReply = (req: RecordedRequest | undefined) => String(req?.body.messages.at(-1)?.content);

describe('agent engine: what a turn says it did', function () {
  it('a turn with changes carries the model\'s summary and its plan as last written', async function () {
    const f = await engineFixture({
      repo: { withAgentsMd: true },
      script: [
        plan(['in_progress', 'pending']),
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'Install the widget 2', new_text: 'Install the gadget 2' } }] },
        plan(['completed', 'completed']),
        { toolCalls: [{ name: 'finish', arguments: { title: 'Say gadget', summary: 'Page 2 now says gadget; the navigation needed nothing.' } }] },
      ],
    });
    const input = await f.turnInput('rep1', ['Say gadget on page 2']);
    const result = await f.inActivity(() => f.activities.runAgentTurn(input));
    assert.equal(result.changed, true);
    assert.equal(result.summary, 'Page 2 now says gadget; the navigation needed nothing.');
    assert.deepEqual(result.todos, [
      { id: '1', content: 'Rename widget on page 2', status: 'completed' },
      { id: '2', content: 'Check the navigation', status: 'completed' },
    ]);
    assert.match(toolReply(f.model.requests[1]), /plan saved: 2 item\(s\), 0 completed/);
    assert.ok(f.model.requests[0]?.body.tools?.some((t) => t.function.name === 'todo_write'), 'the model is offered the plan tool');
    assert.match(systemOf(f.model.requests[0]), /todo_write/);

    // The worker died after the push: the retried attempt reads the plan back from the commit, not the model.
    const retried = await f.inActivity(() => f.activities.runAgentTurn(input));
    assert.equal(f.model.requests.length, 4);
    assert.equal(retried.stopReason, 'already_pushed');
    assert.deepEqual([retried.summary, retried.todos, retried.instructionFiles], [result.summary, result.todos, ['AGENTS.md']]);
  });

  it('a turn that changes nothing says so, in the model\'s words', async function () {
    const f = await engineFixture({ script: [{ text: 'Page 3 already mentions widget 3.' }] });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('rep2', ['Check page 3'])));
    assert.equal(result.changed, false);
    assert.equal(result.summary, 'No files were changed. Page 3 already mentions widget 3.');
    assert.equal(result.todos, undefined, 'no plan written, none reported');
  });

  it('a bounded turn without changes says which bound stopped it', async function () {
    const f = await engineFixture({ env: { QUIRE_AGENT_MAX_STEPS: '2' }, script: (_req, i) => ({ toolCalls: [{ name: 'search_text', arguments: { query: `widget ${i}` } }] }) });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('rep3', ['Look around'])));
    assert.equal(result.stopReason, 'max_steps');
    assert.equal(result.changed, false);
    assert.match(result.summary, /^No files were changed\. The turn reached its step limit \(QUIRE_AGENT_MAX_STEPS\) before the model finished\.$/);
  });

  it('refuses a plan beyond the bounds, and one with an unknown status, with errors the model reads', async function () {
    const many = Array.from({ length: MAX_TODOS + 1 }, (_, i) => ({ id: String(i), content: `step ${i}`, status: 'pending' }));
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'todo_write', arguments: { todos: many } }] },
        { toolCalls: [{ name: 'todo_write', arguments: { todos: [{ id: '1', content: 'x', status: 'doing' }] } }] },
        { toolCalls: [{ name: 'todo_write', arguments: { todos: [{ id: '1', content: 'a', status: 'pending' }, { id: '1', content: 'b', status: 'pending' }] } }] },
        { text: 'Nothing to do.' },
      ],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('rep4', ['Plan badly'])));
    assert.match(toolReply(f.model.requests[1]), new RegExp(`error: at most ${MAX_TODOS} todos`));
    assert.match(toolReply(f.model.requests[2]), /error: todos\[0\]\.status must be pending, in_progress or completed/);
    assert.match(toolReply(f.model.requests[3]), /error: todo ids must be distinct/);
    assert.equal(result.todos, undefined, 'no refused plan is kept');
  });
});

describe('agent engine: repository instructions', function () {
  const finishEdit = [
    { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'Install the widget 1', new_text: 'Install the gadget 1' } }] },
    { toolCalls: [{ name: 'finish', arguments: { title: 'Say gadget', summary: 'Page 1 says gadget.' } }] },
  ];

  it('adds .quire/AGENTS.md, .mintlify/AGENTS.md and AGENTS.md in that order to the system prompt, and the pull request names them', async function () {
    const f = await engineFixture({
      repo: {
        docsPath: 'docs',
        files: {
          '.quire/AGENTS.md': 'Quire rule: use sentence case.\n',
          '.mintlify/AGENTS.md': 'Mintlify rule: prefer <Note> callouts.\n',
          'AGENTS.md': 'Root rule: British English.\n',
        },
      },
      script: finishEdit,
    });
    const input = await f.turnInput('ins1', ['Say gadget on page 1']);
    const result = await f.inActivity(() => f.activities.runAgentTurn(input));
    const system = systemOf(f.model.requests[0]);
    const at = ['From .quire/AGENTS.md:\n\nQuire rule', 'From .mintlify/AGENTS.md:\n\nMintlify rule', 'From AGENTS.md:\n\nRoot rule'].map((s) => system.indexOf(s));
    assert.ok(at.every((i) => i > 0), system);
    assert.deepEqual([...at].sort((a, b) => a - b), at, 'in precedence order');
    assert.deepEqual(result.instructionFiles, ['.quire/AGENTS.md', '.mintlify/AGENTS.md', 'AGENTS.md']);

    await f.storeTurnPrompts('ins1', 1);
    const pr = await f.inActivity(() =>
      f.activities.openOrUpdatePullRequest({
        jobId: 'ins1', projectId: 'docs', branch: input.branch, turn: 1, title: result.title, summary: result.summary, messageIds: ['m1'],
        filesChanged: result.filesChanged, validationErrors: [], stopReason: result.stopReason, instructionFiles: result.instructionFiles, draft: false,
      }),
    );
    const body = (await new PullStore(f.services.database).get('docs', pr.number))?.body ?? '';
    assert.match(body, /### Repository instructions\n\nThe agent followed `\.quire\/AGENTS\.md`, `\.mintlify\/AGENTS\.md`, `AGENTS\.md`\./);
  });

  it('keeps to QUIRE_AGENT_INSTRUCTIONS_MAX_CHARS across the files, the first file first', async function () {
    const f = await engineFixture({
      env: { QUIRE_AGENT_INSTRUCTIONS_MAX_CHARS: '100' },
      repo: { files: { '.quire/AGENTS.md': `${'q'.repeat(80)}\n`, 'AGENTS.md': `ROOT${'r'.repeat(500)}END\n` } },
      script: [{ text: 'ok' }],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('ins2', ['Anything'])));
    const system = systemOf(f.model.requests[0]);
    assert.match(system, /q{80}/);
    // 81 characters of the first file (its line end included) leave 19 of the root one's.
    assert.match(system, /From AGENTS\.md:\n\nROOTr{15}$/, 'the root file is cut to the room left');
    assert.doesNotMatch(system, /END/);
    assert.deepEqual(result.instructionFiles, ['.quire/AGENTS.md', 'AGENTS.md']);
  });

  it('does not follow an instruction file that links out of the workspace', async function () {
    const outside = await tempDir('quire-outside-');
    await fs.writeFile(path.join(outside, 'AGENTS.md'), 'SECRET instructions from outside');
    const f = await engineFixture({ repo: { files: { 'AGENTS.md': 'Root rule: British English.\n' } }, script: [{ text: 'ok' }] });
    await fs.mkdir(path.join(f.repo.seedDir, '.quire'));
    await fs.symlink(path.join(outside, 'AGENTS.md'), path.join(f.repo.seedDir, '.quire', 'AGENTS.md'));
    await f.repo.git(f.repo.seedDir, 'add', '.quire');
    await f.repo.git(f.repo.seedDir, 'commit', '-q', '-m', 'outward instructions');
    await f.repo.git(f.repo.seedDir, 'push', '-q', 'origin', 'main');
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('ins3', ['Anything'])));
    const system = systemOf(f.model.requests[0]);
    assert.doesNotMatch(system, /SECRET/);
    assert.match(system, /Root rule/);
    assert.deepEqual(result.instructionFiles, ['AGENTS.md']);
  });

  it('a repository without instruction files gets the plain prompt', async function () {
    const f = await engineFixture({ script: [{ text: 'ok' }] });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('ins4', ['Anything'])));
    assert.doesNotMatch(systemOf(f.model.requests[0]), /instructions for agents/);
    assert.deepEqual(result.instructionFiles, []);
  });
});
