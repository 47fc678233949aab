/**
 * The import fence in eslint.config.js, proven on planted violations: ESLint's Node API lints
 * in-memory code as if it were an existing file of each folder (the text replaces the file's).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../../support/temporal.js';

const FENCE_RULES = new Set(['no-restricted-imports', '@typescript-eslint/no-restricted-imports']);

/** Real files at depth 1 and 2 of each fenced folder; the fence matches by depth, so both are tried. */
const HOSTS = {
  core: ['core/config.ts', 'core/jobs/job-id.ts'],
  api: ['api/app.ts', 'api/agent/routes.ts'],
  workflows: ['workflows/ping.ts', 'workflows/agent-job/job-state.ts'],
  activities: ['activities/ping.ts', 'activities/agent/prompt.ts'],
} as const;

/** The import of `target` from a file at `host`, as a relative path the way the code base writes it. */
function importOf(host: string, target: string, kind: 'value' | 'type'): string {
  const up = '../'.repeat(host.split('/').length - 1);
  const name = kind === 'type' ? 'import type { Planted }' : 'import { planted }';
  return `${name} from '${up}${target}';\nexport const used = ${kind === 'type' ? '(x: Planted) => x' : 'planted'};\n`;
}

describe('import fence (ESLint)', function () {
  this.timeout(180_000);
  const eslint = new ESLint({ cwd: REPO_ROOT });

  async function fenceErrors(host: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, host) });
    const messages = result?.messages ?? [];
    const parsing = messages.find((m) => m.fatal);
    assert.equal(parsing, undefined, `${host} did not parse: ${parsing?.message}`);
    return messages.filter((m) => m.ruleId !== null && FENCE_RULES.has(m.ruleId)).map((m) => m.message);
  }

  const forbidden: Array<[keyof typeof HOSTS, string[], Array<'value' | 'type'>]> = [
    ['core', ['api/app.js', 'workflows/index.js', 'activities/index.js', 'worker/create-worker.js', 'infra/start.js'], ['value', 'type']],
    ['api', ['activities/index.js', 'worker/create-worker.js', 'workflows/index.js'], ['value', 'type']],
    ['workflows', ['activities/index.js'], ['value']],
    ['activities', ['api/app.js'], ['value', 'type']],
  ];
  for (const [folder, targets, kinds] of forbidden) {
    for (const host of HOSTS[folder]) {
      for (const target of targets) {
        for (const kind of kinds) {
          it(`refuses a ${kind} import of ${target.split('/')[0]}/ in ${host}`, async () => {
            const errors = await fenceErrors(host, importOf(host, target, kind));
            assert.equal(errors.length, 1, `expected the fence to fire, got ${JSON.stringify(errors)}`);
          });
        }
      }
    }
  }

  const allowed: Array<[string, string, 'value' | 'type']> = [
    ['workflows/ping.ts', 'activities/ping.js', 'type'],
    ['workflows/agent-job/job-state.ts', 'activities/agent/index.js', 'type'],
    ['api/agent/routes.ts', 'core/contracts/index.js', 'value'],
    ['core/jobs/job-id.ts', 'core/contracts/index.js', 'value'],
    ['activities/agent/prompt.ts', 'core/contracts/index.js', 'value'],
  ];
  for (const [host, target, kind] of allowed) {
    it(`lets ${host} ${kind}-import ${target}`, async () => {
      assert.deepEqual(await fenceErrors(host, importOf(host, target, kind)), []);
    });
  }
});
