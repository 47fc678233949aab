import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { writeResolved } from '../../../activities/agent/confined-files.js';
import { resolveToolPath } from '../../../activities/agent/paths.js';
import { executeTool } from '../../../activities/agent/tools.js';
import { toolWorkspace } from './workspace-fixture.js';

const call = (ws: Awaited<ReturnType<typeof toolWorkspace>>, tool: string, args: object) => executeTool(ws, tool, JSON.stringify(args));
const exists = (p: string) => fs.lstat(p).then(() => true, () => false);

/** Every tool that takes a path, aimed at `target`; none may touch anything outside the workspace. */
function attacks(target: string): Array<[string, object]> {
  return [
    ['write_file', { path: target, content: 'pwned' }],
    ['write_file', { path: `${target}/nested.md`, content: 'pwned' }],
    ['read_file', { path: target }],
    ['replace_text', { path: target, old_text: 'secret', new_text: 'pwned' }],
    ['move_file', { from: 'a.md', to: target }],
    ['move_file', { from: 'a.md', to: `${target}/moved.md` }],
    ['list_files', { path: target }],
    ['search_text', { query: 'secret', path: target }],
  ];
}

describe('agent tools: no symlink leads out of the workspace', function () {
  it('a dangling link to a path outside that does not exist yet: nothing is created there', async function () {
    const ws = await toolWorkspace();
    const victim = path.join(ws.outside, 'created-by-agent.mdx');
    await fs.symlink(victim, path.join(ws.docsRoot, 'dangling.mdx'));
    const out = await call(ws, 'write_file', { path: 'dangling.mdx', content: 'pwned' });
    assert.match(out.output, /^error: path dangling\.mdx resolves through a symlink to outside the workspace/);
    assert.equal(await exists(victim), false, 'no file appeared outside the workspace');
  });

  const shapes: Array<[string, (ws: Awaited<ReturnType<typeof toolWorkspace>>) => Promise<string>]> = [
    ['an existing file outside', async (ws) => {
      await fs.writeFile(path.join(ws.outside, 'secret.md'), 'secret');
      await fs.symlink(path.join(ws.outside, 'secret.md'), path.join(ws.docsRoot, 'link.md'));
      return 'link.md';
    }],
    ['a chain of links ending outside (dangling)', async (ws) => {
      await fs.symlink(path.join(ws.outside, 'nothing-yet'), path.join(ws.root, 'last'));
      await fs.symlink('../last', path.join(ws.docsRoot, 'middle'));
      await fs.symlink('middle', path.join(ws.docsRoot, 'first.md'));
      return 'first.md';
    }],
    ['a relative link climbing out', async (ws) => {
      await fs.symlink(`../../${path.basename(ws.outside)}/x.md`, path.join(ws.docsRoot, 'climb.md'));
      return 'climb.md';
    }],
    ['a parent folder that links out (existing)', async (ws) => {
      await fs.writeFile(path.join(ws.outside, 'secret.md'), 'secret');
      await fs.symlink(ws.outside, path.join(ws.docsRoot, 'guides'));
      return 'guides/secret.md';
    }],
    ['a parent folder that links out (dangling)', async (ws) => {
      await fs.symlink(path.join(ws.outside, 'later'), path.join(ws.docsRoot, 'later'));
      return 'later/page.md';
    }],
    ['a link into git\'s folder', async (ws) => {
      await fs.symlink('../.git', path.join(ws.docsRoot, 'meta'));
      return 'meta/config';
    }],
  ];

  for (const [shape, plant] of shapes) {
    it(`every tool refuses ${shape}, and the outside is untouched`, async function () {
      const ws = await toolWorkspace();
      const target = await plant(ws);
      const before = await fs.readdir(ws.outside);
      for (const [tool, args] of attacks(target)) {
        const out = await call(ws, tool, args);
        assert.match(out.output, /^error: /, `${tool} ${JSON.stringify(args)} answered: ${out.output}`);
      }
      assert.deepEqual(await fs.readdir(ws.outside), before, 'nothing created outside');
      if (before.includes('secret.md')) assert.equal(await fs.readFile(path.join(ws.outside, 'secret.md'), 'utf8'), 'secret');
      assert.equal(await exists(path.join(ws.docsRoot, 'a.md')), true, 'the moved file stayed');
    });
  }

  it('a link loop is refused, not followed forever', async function () {
    const ws = await toolWorkspace();
    await fs.symlink('loop-b', path.join(ws.docsRoot, 'loop-a'));
    await fs.symlink('loop-a', path.join(ws.docsRoot, 'loop-b'));
    assert.match((await call(ws, 'write_file', { path: 'loop-a', content: 'x' })).output, /too many symlinks/);
  });

  it('delete and move act on a link itself, never on what it points at', async function () {
    const ws = await toolWorkspace();
    await fs.writeFile(path.join(ws.outside, 'secret.md'), 'secret');
    await fs.symlink(path.join(ws.outside, 'secret.md'), path.join(ws.docsRoot, 'out.md'));
    await fs.symlink(path.join(ws.outside, 'secret.md'), path.join(ws.docsRoot, 'out2.md'));
    assert.equal((await call(ws, 'move_file', { from: 'out2.md', to: 'renamed.md' })).output, 'moved out2.md to renamed.md');
    assert.equal((await fs.lstat(path.join(ws.docsRoot, 'renamed.md'))).isSymbolicLink(), true);
    assert.equal((await call(ws, 'delete_file', { path: 'out.md' })).output, 'deleted out.md');
    assert.equal(await exists(path.join(ws.docsRoot, 'out.md')), false);
    assert.equal(await fs.readFile(path.join(ws.outside, 'secret.md'), 'utf8'), 'secret');
  });

  it('links that stay inside the workspace still work, dangling ones included', async function () {
    const ws = await toolWorkspace();
    await fs.symlink('a.md', path.join(ws.docsRoot, 'alias.md'));
    await fs.symlink(path.join(ws.root, 'docs', 'new.md'), path.join(ws.docsRoot, 'to-be.md'));
    assert.match((await call(ws, 'read_file', { path: 'alias.md' })).output, /1\| # A/);
    assert.match((await call(ws, 'write_file', { path: 'to-be.md', content: '# New\n' })).output, /^wrote/);
    assert.equal(await fs.readFile(path.join(ws.docsRoot, 'new.md'), 'utf8'), '# New\n');
  });

  it('a folder or file swapped for a link after the check is refused, not followed', async function () {
    const ws = await toolWorkspace();
    const intoFolder = await resolveToolPath(ws, 'guides/page.md');
    await fs.symlink(ws.outside, path.join(ws.docsRoot, 'guides'));
    await assert.rejects(writeResolved(intoFolder, 'pwned', 'guides/page.md'), /changed while writing/);
    const file = await resolveToolPath(ws, 'late.md');
    await fs.symlink(path.join(ws.outside, 'late.md'), path.join(ws.docsRoot, 'late.md'));
    await assert.rejects(writeResolved(file, 'pwned', 'late.md'), { code: 'ELOOP' });
    assert.deepEqual(await fs.readdir(ws.outside), []);
  });
});
