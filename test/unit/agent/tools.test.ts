import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { resolveToolPath, ToolError } from '../../../activities/agent/paths.js';
import { executeTool, type ToolContext } from '../../../activities/agent/tools.js';
import { isIgnored } from '../../../activities/agent/workspace.js';
import { runGit } from '../../../core/git/index.js';
import { TurnBudget } from '../../../activities/agent/turn-budget.js';
import { tempDir } from '../../support/services.js';

async function workspace(): Promise<ToolContext> {
  const root = await tempDir('quire-ws-');
  const docsRoot = path.join(root, 'docs');
  await fs.mkdir(path.join(root, '.git'), { recursive: true });
  await fs.mkdir(docsRoot, { recursive: true });
  await fs.writeFile(path.join(docsRoot, 'a.md'), 'one two\none two\nthree\n');
  await fs.writeFile(path.join(root, 'outside-docs.md'), 'repo root file');
  return { root, docsRoot, validate: async () => [], isIgnored: async () => false, budget: new TurnBudget({ maxFileBytes: 1 << 20, maxFilesPerTurn: 100, maxTurnBytes: 1 << 24 }) };
}

describe('agent tools: path confinement', function () {
  it('resolves plain relative paths inside the docs root', async function () {
    const ws = await workspace();
    assert.equal(await resolveToolPath(ws, 'guides/./new.mdx'), path.join(ws.docsRoot, 'guides', 'new.mdx'));
  });

  for (const [input, reason] of [
    ['../outside-docs.md', /'\.\.' is not allowed/],
    ['guides/../../x', /'\.\.' is not allowed/],
    ['/etc/passwd', /absolute paths/],
    ['C:/Windows/x', /absolute paths/],
    ['', /must name a file/],
  ] as const) {
    it(`refuses ${JSON.stringify(input)}`, async function () {
      const ws = await workspace();
      await assert.rejects(resolveToolPath(ws, input), (err: unknown) => err instanceof ToolError && reason.test(err.message));
    });
  }

  it('refuses .git and symlinks that leave the workspace, allows symlinks inside it', async function () {
    const ws = { ...(await workspace()), docsRoot: '' };
    ws.docsRoot = ws.root; // docs at the repository root, so .git is reachable by name
    await assert.rejects(resolveToolPath(ws, '.git/config'), /\.git folder is off limits/);
    const outside = await tempDir('quire-out-');
    await fs.symlink(outside, path.join(ws.root, 'out'));
    await fs.symlink(path.join(ws.root, '.git'), path.join(ws.root, 'sneaky'));
    await fs.symlink(path.join(ws.root, 'docs'), path.join(ws.root, 'alias'));
    await assert.rejects(resolveToolPath(ws, 'out/new-file.md'), /symlink to outside the workspace/);
    await assert.rejects(resolveToolPath(ws, 'sneaky/HEAD'), /\.git folder is off limits/);
    // A link inside the workspace is followed: the tools act on the real file it names.
    assert.equal(await resolveToolPath(ws, 'alias/a.md'), path.join(await fs.realpath(ws.root), 'docs', 'a.md'));
  });

  it('a refused path reaches the model as a tool error, not an exception', async function () {
    const ws = await workspace();
    const out = await executeTool(ws, 'delete_file', JSON.stringify({ path: '../outside-docs.md' }));
    assert.match(out.output, /^error: '\.\.' is not allowed/);
    assert.equal(await fs.readFile(path.join(ws.root, 'outside-docs.md'), 'utf8'), 'repo root file');
  });
});

describe('agent tools: links out of the docs folder', function () {
  it('reads through a link to a file of the repository outside the docs, but refuses to change it, saying where it leads', async function () {
    const ws = await workspace();
    await fs.symlink('../outside-docs.md', path.join(ws.docsRoot, 'index.md'));
    assert.match((await executeTool(ws, 'read_file', JSON.stringify({ path: 'index.md' }))).output, /repo root file/);
    for (const [tool, args] of [
      ['write_file', { path: 'index.md', content: 'changed' }],
      ['replace_text', { path: 'index.md', old_text: 'repo', new_text: 'changed' }],
    ] as const) {
      assert.equal((await executeTool(ws, tool, JSON.stringify(args))).output, 'error: index.md leads to outside-docs.md, outside the docs folder (through a link); only the docs folder\'s files can be changed', tool);
    }
    assert.equal(await fs.readFile(path.join(ws.root, 'outside-docs.md'), 'utf8'), 'repo root file');
    // The link itself is the docs folder's: it may be deleted.
    assert.equal((await executeTool(ws, 'delete_file', JSON.stringify({ path: 'index.md' }))).output, 'deleted index.md');
  });
});

describe('agent tools: replace_text', function () {
  it('replaces an exact text that occurs once', async function () {
    const ws = await workspace();
    const out = await executeTool(ws, 'replace_text', JSON.stringify({ path: 'a.md', old_text: 'three', new_text: 'four' }));
    assert.equal(out.output, 'replaced 1 occurrence in a.md');
    assert.equal(await fs.readFile(path.join(ws.docsRoot, 'a.md'), 'utf8'), 'one two\none two\nfour\n');
  });

  it('refuses a text found several times or not at all, leaving the file unchanged', async function () {
    const ws = await workspace();
    const many = await executeTool(ws, 'replace_text', JSON.stringify({ path: 'a.md', old_text: 'one two', new_text: 'x' }));
    assert.match(many.output, /occurs 2 times in a\.md; include more surrounding text/);
    const none = await executeTool(ws, 'replace_text', JSON.stringify({ path: 'a.md', old_text: 'One Two', new_text: 'x' }));
    assert.match(none.output, /was not found in a\.md/);
    const missing = await executeTool(ws, 'replace_text', JSON.stringify({ path: 'b.md', old_text: 'x', new_text: 'y' }));
    assert.match(missing.output, /b\.md does not exist/);
    assert.equal(await fs.readFile(path.join(ws.docsRoot, 'a.md'), 'utf8'), 'one two\none two\nthree\n');
  });

  it('replacement text with $ patterns is inserted literally', async function () {
    const ws = await workspace();
    await executeTool(ws, 'replace_text', JSON.stringify({ path: 'a.md', old_text: 'three', new_text: "$& $' $1" }));
    assert.equal(await fs.readFile(path.join(ws.docsRoot, 'a.md'), 'utf8'), "one two\none two\n$& $' $1\n");
  });
});

describe('agent tools: files that are not UTF-8 text, and long folders', function () {
  it('refuses to read or edit a file in another encoding or a binary one, leaving its bytes as they were', async function () {
    const ws = await workspace();
    const latin1 = Buffer.from('Caf\xe9 au lait\nTODO: translate\n', 'latin1');
    await fs.writeFile(path.join(ws.docsRoot, 'legacy.md'), latin1);
    await fs.writeFile(path.join(ws.docsRoot, 'logo.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x0a]));
    const edit = await executeTool(ws, 'replace_text', JSON.stringify({ path: 'legacy.md', old_text: 'TODO', new_text: 'Done' }));
    assert.match(edit.output, /^error: legacy\.md is not UTF-8 text/);
    assert.deepEqual(await fs.readFile(path.join(ws.docsRoot, 'legacy.md')), latin1);
    assert.match((await executeTool(ws, 'read_file', JSON.stringify({ path: 'logo.md' }))).output, /^error: logo\.md is not UTF-8 text/);
    assert.match((await executeTool(ws, 'read_file', JSON.stringify({ path: 'a.md' }))).output, /one two/);
  });

  it('refuses to write a NUL, by write_file or replace_text, as reading refuses it: the page is left as it was', async function () {
    const ws = await workspace();
    const write = await executeTool(ws, 'write_file', JSON.stringify({ path: 'broken.mdx', content: '# T\n\u0000\n[dead](/nowhere)\n' }));
    assert.match(write.output, /^error: the content for broken\.mdx holds a NUL character/);
    assert.equal(await fs.stat(path.join(ws.docsRoot, 'broken.mdx')).catch(() => undefined), undefined);
    const edit = await executeTool(ws, 'replace_text', JSON.stringify({ path: 'a.md', old_text: 'three', new_text: 'thr\u0000ee' }));
    assert.match(edit.output, /^error: the content for a\.md holds a NUL character/);
    assert.equal(await fs.readFile(path.join(ws.docsRoot, 'a.md'), 'utf8'), 'one two\none two\nthree\n');
  });

  it("refuses to write or move a page where the repository's ignore rules would leave it out of the commit", async function () {
    const root = await tempDir('quire-ign-');
    await runGit(root, ['init', '-q']);
    await fs.writeFile(path.join(root, '.gitignore'), 'drafts/\n*.local.mdx\n!keep.local.mdx\n');
    await fs.writeFile(path.join(root, 'a.mdx'), '# A\n');
    const ws: ToolContext = {
      ...(await workspace()),
      root,
      docsRoot: root,
      isIgnored: (file) => isIgnored({ git: (args) => runGit(root, args) }, file),
    };
    const write = (p: string) => executeTool(ws, 'write_file', JSON.stringify({ path: p, content: '# Page\n' }));
    assert.match((await write('drafts/guide.mdx')).output, /^error: drafts\/guide\.mdx is ignored by the repository \(\.gitignore\)/);
    assert.match((await write('notes.local.mdx')).output, /^error: notes\.local\.mdx is ignored/);
    assert.match((await write('keep.local.mdx')).output, /^wrote keep\.local\.mdx/, 'a negated pattern is not ignored');
    const move = await executeTool(ws, 'move_file', JSON.stringify({ from: 'a.mdx', to: 'drafts/a.mdx' }));
    assert.match(move.output, /^error: drafts\/a\.mdx is ignored/);
    assert.equal(await fs.readFile(path.join(root, 'a.mdx'), 'utf8'), '# A\n');
  });

  it('finish keeps a one-line printable title, and refuses one of control characters alone', async function () {
    const ws = await workspace();
    assert.match((await executeTool(ws, 'finish', JSON.stringify({ title: '\u0007\u0008 ' }))).output, /^error: title must not be empty/);
    const done = await executeTool(ws, 'finish', JSON.stringify({ title: 'Line one\nLine\ttwo\u0007', summary: 'ok' }));
    assert.deepEqual('finish' in done ? done.finish : undefined, { title: 'Line one Line two', summary: 'ok' });
  });

  it('search_text looks through text files past a folder of 600 images, and a folder that is not there is an error', async function () {
    const ws = await workspace();
    await fs.mkdir(path.join(ws.docsRoot, 'a-images'));
    for (let i = 0; i < 600; i++) await fs.writeFile(path.join(ws.docsRoot, 'a-images', `img-${String(i).padStart(3, '0')}.png`), 'x');
    await fs.writeFile(path.join(ws.docsRoot, 'z-page.md'), '# Z\n\nthe needle is here\n');
    assert.match((await executeTool(ws, 'search_text', JSON.stringify({ query: 'needle' }))).output, /^z-page\.md:3: the needle is here$/);
    const listed = (await executeTool(ws, 'list_files', JSON.stringify({}))).output;
    assert.match(listed, /\(first 500 files shown; list a subfolder for more\)$/);
    assert.match((await executeTool(ws, 'search_text', JSON.stringify({ query: 'needle', path: 'nowhere' }))).output, /^error: nowhere does not exist or is not a folder/);
    assert.match((await executeTool(ws, 'list_files', JSON.stringify({ path: 'a.md' }))).output, /^error: a\.md does not exist or is not a folder/);
  });
});
