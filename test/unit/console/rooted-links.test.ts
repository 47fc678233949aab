import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import path from 'node:path';

const CONSOLE = path.join(__dirname, '../../../console');

async function sources(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? sources(path.join(dir, e.name)) : Promise.resolve(/\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []))));
  return nested.flat();
}

describe("the console's own links", () => {
  it('go through rooted(), so behind a path prefix none leads out of it', async () => {
    const rootAbsolute: string[] = [];
    for (const file of await sources(CONSOLE)) {
      const text = await fs.readFile(file, 'utf8');
      for (const [i, line] of text.split('\n').entries()) {
        if (/\b(?:href|to|action)=["'{`]*\/console\b/.test(line)) rootAbsolute.push(`${path.relative(CONSOLE, file)}:${i + 1}: ${line.trim()}`);
      }
    }
    assert.deepEqual(rootAbsolute, []);
  });
});
