import { runGit } from '../git/index.js';

/** The diff a reviewer sees: base...head (changes on the job branch since it left the base). */
export function branchDiff(repository: string, base: string, head: string): Promise<string> {
  return runGit(repository, ['diff', '--no-color', '--no-ext-diff', `refs/heads/${base}...refs/heads/${head}`, '--']);
}
