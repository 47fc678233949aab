import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';
import { executeTool } from '../../../activities/agent/tools.js';
import { toolWorkspace } from './workspace-fixture.js';

type Ws = Awaited<ReturnType<typeof toolWorkspace>>;
const call = (ws: Ws, tool: string, args: object) => executeTool(ws, tool, JSON.stringify(args));

describe('agent tools: names the model may write', function () {
  const refused: Array<[string, RegExp]> = [
    ['bad\nname.md', /unprintable character \(U\+000A\)/],
    ['bad\rname.md', /unprintable character \(U\+000D\)/],
    ['bad\tname.md', /unprintable character \(U\+0009\)/],
    ['bell\u0007.md', /unprintable character \(U\+0007\)/],
    ['zero\u200bwidth.md', /unprintable character \(U\+200B\)/],
    ['line\u2028sep.md', /unprintable character \(U\+2028\)/],
    [`${'n'.repeat(256)}.md`, /longer than 255 bytes/],
    [`${'dir/'.repeat(130)}x.md`, /longer than 512 bytes/],
    ['.GIT/config', /\.git folder is off limits/],
    ['guides/.Git/hooks/pre-commit', /\.git folder is off limits/],
    ['.git./config', /\.git folder is off limits/],
    ['GIT~1/config', /\.git folder is off limits/],
  ];
  for (const [name, reason] of refused) {
    it(`refuses to write ${JSON.stringify(name.length > 40 ? name.slice(0, 40) + '…' : name)} with a reason the model can read`, async function () {
      const ws = await toolWorkspace();
      const out = await call(ws, 'write_file', { path: name, content: 'x' });
      assert.match(out.output, /^error: /);
      assert.match(out.output, reason);
      const moved = await call(ws, 'move_file', { from: 'a.md', to: name });
      assert.match(moved.output, reason);
      assert.deepEqual((await fs.readdir(ws.docsRoot)).sort(), ['a.md'], 'nothing was written');
    });
  }

  it('accepts ordinary names, non-Latin letters and spaces included', async function () {
    const ws = await toolWorkspace();
    for (const name of ['guides/getting started.md', 'ja/はじめに.mdx', '.github/workflows/ci.yml', '.gitignore']) {
      assert.match((await call(ws, 'write_file', { path: name, content: 'x' })).output, /^wrote/, name);
    }
  });
});

describe('agent tools: what one turn may write', function () {
  it('refuses a file over the per-file limit, leaving the old content', async function () {
    const ws = await toolWorkspace({ maxFileBytes: 100 });
    const out = await call(ws, 'write_file', { path: 'a.md', content: 'x'.repeat(101) });
    assert.equal(out.output, 'error: the content is 101 bytes; a file may hold at most 100 bytes');
    assert.equal(await fs.readFile(path.join(ws.docsRoot, 'a.md'), 'utf8'), '# A\n');
    assert.match((await call(ws, 'write_file', { path: 'a.md', content: 'x'.repeat(99) + 'y' })).output, /^wrote/);
    const grown = await call(ws, 'replace_text', { path: 'a.md', old_text: 'y', new_text: 'yy' });
    assert.match(grown.output, /a file may hold at most 100 bytes/);
  });

  it('counts bytes, not characters', async function () {
    const ws = await toolWorkspace({ maxFileBytes: 10 });
    assert.match((await call(ws, 'write_file', { path: 'b.md', content: 'ééééé' })).output, /^wrote/);
    assert.match((await call(ws, 'write_file', { path: 'b.md', content: 'éééééé' })).output, /12 bytes/);
  });

  it('refuses more changed files than the per-turn limit; rewriting a changed file is free', async function () {
    const ws = await toolWorkspace({ maxFilesPerTurn: 3 });
    for (const name of ['one.md', 'two.md', 'one.md', 'three.md']) assert.match((await call(ws, 'write_file', { path: name, content: 'x' })).output, /^wrote/);
    const out = await call(ws, 'write_file', { path: 'four.md', content: 'x' });
    assert.match(out.output, /already changed 3 files, the most one turn may change is 3; finish now/);
    assert.match((await call(ws, 'delete_file', { path: 'a.md' })).output, /the most one turn may change is 3/);
    assert.match((await call(ws, 'move_file', { from: 'two.md', to: 'five.md' })).output, /the most one turn may change is 3/);
    assert.match((await call(ws, 'delete_file', { path: 'two.md' })).output, /^deleted/, 'a file already changed may still be deleted');
  });

  it('refuses a turn whose written files would pass the total, counting each file at its latest size', async function () {
    const ws = await toolWorkspace({ maxTurnBytes: 250 });
    assert.match((await call(ws, 'write_file', { path: 'one.md', content: 'x'.repeat(100) })).output, /^wrote/);
    assert.match((await call(ws, 'write_file', { path: 'one.md', content: 'x'.repeat(120) })).output, /^wrote/);
    assert.match((await call(ws, 'write_file', { path: 'two.md', content: 'x'.repeat(100) })).output, /^wrote/);
    const out = await call(ws, 'write_file', { path: 'three.md', content: 'x'.repeat(31) });
    assert.match(out.output, /bring the files this turn wrote to 251 bytes, over the limit of 250 per turn/);
    assert.match((await call(ws, 'delete_file', { path: 'two.md' })).output, /^deleted/);
    assert.match((await call(ws, 'write_file', { path: 'three.md', content: 'x'.repeat(31) })).output, /^wrote/, 'a deleted file frees its bytes');
  });
});
