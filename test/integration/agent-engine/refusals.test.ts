/**
 * A turn whose model tries to escape the workspace or push oversized or unsafe changes: every
 * attempt is refused by the tool, the model reads why, and the turn still ends with a clean commit.
 * Real bare repository with a symlink in it; the scripted Chat Completions server stands in for the model.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { tempDir } from '../../support/services.js';
import { engineFixture } from './setup.js';

const write = (p: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path: p, content } }] });

describe('agent engine: refused writes do not fail the turn', function () {
  it('refuses a dangling symlink out, git\'s folder, unprintable names and oversized files, then commits the good edit', async function () {
    const outside = await tempDir('quire-outside-');
    const victim = path.join(outside, 'escaped.mdx');
    const f = await engineFixture({
      env: { QUIRE_AGENT_MAX_FILE_BYTES: '2kb' },
      script: [
        write('dangling.mdx', 'escaped'),
        write('.GIT/config', '[core]\n\thooksPath = /tmp\n'),
        write('new\nline.mdx', '# x\n'),
        write('big.mdx', 'x'.repeat(4096)),
        write('good.mdx', '---\ntitle: Good\n---\n\n# Good\n'),
        { toolCalls: [{ name: 'finish', arguments: { title: 'Add a good page', summary: 'One page.' } }] },
      ],
    });
    // The repository itself carries the trap: a link to a path outside that does not exist yet.
    await fs.symlink(victim, path.join(f.repo.seedDir, 'dangling.mdx'));
    await f.repo.git(f.repo.seedDir, 'add', 'dangling.mdx');
    await f.repo.git(f.repo.seedDir, 'commit', '-q', '-m', 'Add a dangling link');
    await f.repo.git(f.repo.seedDir, 'push', '-q', 'origin', f.repo.branch);

    const result = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('refused1', ['Add a page'])));
    assert.equal(result.changed, true);
    assert.equal(result.stopReason, 'finish');
    assert.deepEqual(result.filesChanged, ['good.mdx']);
    assert.equal(await fs.stat(victim).then(() => true, () => false), false, 'nothing was written outside the workspace');

    const toolReplies = f.model.requests.slice(1, 5).map((r) => String(r.body.messages.at(-1)!.content));
    assert.match(toolReplies[0]!, /^error: path dangling\.mdx resolves through a symlink to outside the workspace/);
    assert.match(toolReplies[1]!, /^error: the \.git folder is off limits/);
    assert.match(toolReplies[2]!, /^error: path .* contains an unprintable character \(U\+000A\)/);
    assert.match(toolReplies[3]!, /^error: the content is 4096 bytes; a file may hold at most 2048 bytes/);
    const tree = await f.repo.git(f.repo.bareDir, 'ls-tree', '-r', '--name-only', 'quire/refused1');
    assert.deepEqual(tree.split('\n').filter((n) => !/^page-|docs\.json/.test(n)).sort(), ['dangling.mdx', 'good.mdx']);
  });
});
