import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../../support/services.js';

const run = promisify(execFile);
// The example docs that ship with Quire (source tree location, not the built one).
const EXAMPLE_DOCS_DIR = path.resolve(__dirname, '..', '..', '..', 'infra', 'example-docs');
const IDENTITY = ['-c', 'user.name=Docs', '-c', 'user.email=docs@example.com', '-c', 'init.defaultBranch=main'];

export interface GitDocs {
  /** The bare repository a domain's `source` points at. */
  bareDir: string;
  /** Edits files in a work clone (a new file's folders are made), commits and pushes to the bare repository. */
  commit(changes: Record<string, string | null>, message: string): Promise<void>;
}

/** A real bare git repository seeded with the example docs that ship with Quire. */
export async function exampleDocsRepo(): Promise<GitDocs> {
  const root = await tempDir('quire-git-docs-');
  const work = path.join(root, 'work');
  const bareDir = path.join(root, 'docs.git');
  const git = (cwd: string, ...args: string[]) => run('git', [...IDENTITY, ...args], { cwd });
  await fs.cp(EXAMPLE_DOCS_DIR, work, { recursive: true });
  await git(work, 'init', '-q');
  await git(work, 'add', '-A');
  await git(work, 'commit', '-q', '-m', 'docs');
  await git(root, 'clone', '-q', '--bare', work, bareDir);
  await git(work, 'remote', 'add', 'origin', bareDir);
  return {
    bareDir,
    async commit(changes, message) {
      for (const [file, text] of Object.entries(changes)) {
        if (text === null) await fs.rm(path.join(work, file));
        else {
          await fs.mkdir(path.dirname(path.join(work, file)), { recursive: true });
          await fs.writeFile(path.join(work, file), text);
        }
      }
      await git(work, 'add', '-A');
      await git(work, 'commit', '-q', '-m', message);
      await git(work, 'push', '-q', 'origin', 'HEAD:main');
    },
  };
}
