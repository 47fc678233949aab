import { execFile } from 'node:child_process';

/** The diff a reviewer sees: base...head (changes on the job branch since it left the base). */
export function branchDiff(repository: string, base: string, head: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      ['diff', '--no-color', '--no-ext-diff', `refs/heads/${base}...refs/heads/${head}`, '--'],
      { cwd: repository, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: '/nonexistent' }, maxBuffer: 32 * 1024 * 1024 },
      (err, stdout, stderr) => (err ? reject(new Error(`git diff failed: ${String(stderr).trim().split('\n')[0]}`)) : resolve(stdout)),
    );
  });
}
