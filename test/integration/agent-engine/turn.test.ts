import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { engineFixture } from './setup.js';

describe('agent engine: a turn against a real repository', function () {
  it('edits a page, commits once and pushes quire/<jobId> to the bare repository', async function () {
    const f = await engineFixture({
      repo: { withAgentsMd: true },
      script: [
        { toolCalls: [{ name: 'read_file', arguments: { path: 'page-2.mdx', start_line: 1, end_line: 8 } }] },
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-2.mdx', old_text: 'Install the widget 2', new_text: 'Install the gadget 2' } }] },
        { toolCalls: [{ name: 'validate', arguments: {} }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Rename widget to gadget', summary: 'Page 2 now says gadget.' } }] },
      ],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('job1', ['Say gadget on page 2'])));
    assert.equal(result.changed, true);
    assert.equal(result.stopReason, 'finish');
    assert.equal(result.steps, 4);
    assert.deepEqual(result.filesChanged, ['page-2.mdx']);
    assert.equal(result.title, 'Rename widget to gadget');
    assert.deepEqual(result.validationErrors, []);
    assert.equal(await f.repo.head('quire/job1'), result.commitSha);
    assert.match((await f.repo.readFile('quire/job1', 'page-2.mdx')) ?? '', /Install the gadget 2/);
    assert.match((await f.repo.readFile('main', 'page-2.mdx')) ?? '', /Install the widget 2/, 'the base branch is untouched');
    const log = await f.repo.git(f.repo.bareDir, 'log', '--format=%an <%ae>%n%B', '-1', 'quire/job1');
    assert.match(log, /^Quire Agent <agent@quire\.local>/);
    assert.match(log, /Rename widget to gadget/);
    // The model saw AGENTS.md in the system prompt, the prompt as a user message, and the read result.
    const first = f.model.requests[0]!.body;
    assert.equal(first.model, 'test-model');
    assert.match(String(first.messages[0]!.content), /From AGENTS\.md:\n\n# Agent notes\n\nWrite in British English/);
    assert.deepEqual(result.instructionFiles, ['AGENTS.md']);
    assert.equal(result.summary, 'Page 2 now says gadget.');
    assert.equal(first.messages[1]!.content, 'Say gadget on page 2');
    assert.deepEqual(first.tools?.map((t) => t.function.name).sort(), ['delete_file', 'finish', 'list_files', 'move_file', 'read_file', 'replace_text', 'search_text', 'todo_write', 'validate', 'write_file']);
    const readResult = f.model.requests[1]!.body.messages.at(-1)!;
    assert.equal(readResult.role, 'tool');
    assert.match(String(readResult.content), /6\| # Page 2/);
  });

  it('a turn without changes makes no commit and pushes nothing', async function () {
    const f = await engineFixture({
      script: [{ toolCalls: [{ name: 'search_text', arguments: { query: 'widget 3' } }] }, { text: 'The docs already say this; nothing to change.' }],
    });
    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('job2', ['Check page 3 mentions widget 3\nThanks'])));
    assert.equal(result.changed, false);
    assert.equal(result.commitSha, null);
    assert.equal(result.stopReason, 'no_tool_calls');
    assert.equal(result.title, 'Check page 3 mentions widget 3');
    assert.equal(result.summary, 'No files were changed. The docs already say this; nothing to change.');
    assert.equal(await f.repo.head('quire/job2'), undefined);
    assert.match(String(f.model.requests[1]!.body.messages.at(-1)!.content), /page-3\.mdx:12:/);
  });

  it('rebuilds a lost workspace from the remote branch and commits on top of the previous turn', async function () {
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'guides/new.mdx', content: '---\ntitle: New\n---\n\n# New\n\nSee [page 1](/page-1).\n' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Add a guide', summary: 'New guide.' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'guides/new.mdx' } }] },
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'guides/new.mdx', old_text: '# New', new_text: '# New guide' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Retitle the guide', summary: 'Heading.' } }] },
      ],
    });
    const first = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('job3', ['Add a guide'])));
    assert.deepEqual(first.filesChanged, ['guides/new.mdx']);
    await fs.rm(path.join(f.services.config.dataDir, 'workspaces', 'job3'), { recursive: true, force: true });
    const second = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('job3', ['Retitle it'], 2)));
    assert.equal(second.changed, true);
    assert.match(String(f.model.requests[3]!.body.messages.at(-1)!.content), /\| # New$/m, 'the rebuilt workspace holds turn 1');
    const parents = await f.repo.git(f.repo.bareDir, 'rev-list', '--parents', '-1', 'quire/job3');
    assert.equal(parents.split(' ')[1], first.commitSha, 'turn 2 builds on the pushed turn 1');
    assert.match((await f.repo.readFile('quire/job3', 'guides/new.mdx')) ?? '', /# New guide/);
  });

  it('a stale cache with stray edits is reset to the remote branch', async function () {
    const f = await engineFixture({ script: [{ text: 'nothing to do' }] });
    const first = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('job4', ['noop'])));
    assert.equal(first.changed, false);
    await fs.writeFile(path.join(f.services.config.dataDir, 'workspaces', 'job4', 'stray.mdx'), '# stray\n');
    f.model.script([{ text: 'still nothing' }]);
    const second = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('job4', ['noop again'], 2)));
    assert.equal(second.changed, false, 'the stray file from a crashed turn is not committed');
  });

  it('a turn removes the checkouts of jobs idle past the idle archive, and only those', async function () {
    const f = await engineFixture({ script: [{ text: 'nothing to do' }] });
    for (const [jobId, turn] of [['job5', 1], ['job6', 1]] as const) {
      await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput(jobId, ['noop'], turn)));
      f.model.script([{ text: 'nothing to do' }]);
    }
    const workspaces = path.join(f.services.config.dataDir, 'workspaces');
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    const idleDays = f.services.config.retention.jobIdleArchiveDays;
    // job5 was last used past the idle archive (its job is archived by now); job6 a day ago.
    await fs.utimes(path.join(workspaces, 'job5'), daysAgo(idleDays + 1), daysAgo(idleDays + 1));
    await fs.utimes(path.join(workspaces, 'job6'), daysAgo(1), daysAgo(1));
    await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('job7', ['noop'])));
    assert.deepEqual((await fs.readdir(workspaces)).sort(), ['job6', 'job7']);
  });
});
