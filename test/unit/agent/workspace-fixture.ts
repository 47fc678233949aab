import fs from 'node:fs/promises';
import path from 'node:path';
import type { ToolContext } from '../../../activities/agent/tools.js';
import { TurnBudget, type WriteLimits } from '../../../activities/agent/turn-budget.js';
import { tempDir } from '../../support/services.js';

/** A workspace on disk with a `.git` folder and a docs folder, and a fresh folder outside it. */
export async function toolWorkspace(limits: Partial<WriteLimits> = {}): Promise<ToolContext & { outside: string }> {
  const root = await tempDir('quire-ws-');
  const docsRoot = path.join(root, 'docs');
  await fs.mkdir(path.join(root, '.git'), { recursive: true });
  await fs.mkdir(docsRoot, { recursive: true });
  await fs.writeFile(path.join(docsRoot, 'a.md'), '# A\n');
  const outside = await tempDir('quire-outside-');
  const budget = new TurnBudget({ maxFileBytes: 1 << 20, maxFilesPerTurn: 100, maxTurnBytes: 1 << 24, ...limits });
  return { root, docsRoot, outside, validate: async () => [], isIgnored: async () => false, budget };
}
