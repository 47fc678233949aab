import { execFile } from 'node:child_process';
import { permanent, transient, AGENT_ERROR } from './errors.js';

/** Identity and credentials for one git invocation; credentials live only in this process's env for the child. */
export interface GitAuth {
  authorName: string;
  authorEmail: string;
  /** HTTPS token (GitHub); sent as an http.extraHeader through GIT_CONFIG_* env, never argv or .git/config. */
  token?: string;
}

export class GitCommandError extends Error {
  override name = 'GitCommandError';
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(message);
  }
}

function gitEnv(auth: GitAuth): NodeJS.ProcessEnv {
  // A clean environment: no user or system git config, no prompts, a fixed identity.
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: auth.authorName,
    GIT_AUTHOR_EMAIL: auth.authorEmail,
    GIT_COMMITTER_NAME: auth.authorName,
    GIT_COMMITTER_EMAIL: auth.authorEmail,
    LC_ALL: 'C',
  };
  if (auth.token) {
    const basic = Buffer.from(`x-access-token:${auth.token}`).toString('base64');
    env.GIT_CONFIG_COUNT = '1';
    env.GIT_CONFIG_KEY_0 = 'http.extraHeader';
    env.GIT_CONFIG_VALUE_0 = `Authorization: Basic ${basic}`;
  }
  return env;
}

/** Removes the token (and its Basic form) from text that may reach an error or a log. */
export function scrubToken(text: string, token: string | undefined): string {
  if (!token) return text;
  const basic = Buffer.from(`x-access-token:${token}`).toString('base64');
  return text.split(token).join('***').split(basic).join('***');
}

/** Runs git with a clean environment; rejects with GitCommandError carrying scrubbed stderr. */
export function runGit(cwd: string, args: string[], auth: GitAuth): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile('git', args, { cwd, env: gitEnv(auth), maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (!err) return resolve(stdout);
      const detail = scrubToken(String(stderr || err.message), auth.token).trim();
      reject(new GitCommandError(`git ${args[0]} failed: ${detail.split('\n').slice(-3).join(' ')}`, detail));
    });
  });
}

/** Classifies a failed remote git command (fetch, ls-remote, push) for Temporal. */
export function classifyGitError(err: unknown, repository: string): Error {
  if (!(err instanceof GitCommandError)) return transient(AGENT_ERROR.gitFailed, String(err));
  const s = err.stderr;
  if (/Authentication failed|could not read Username|terminal prompts disabled|returned error: 40[13]|Permission denied|invalid credentials/i.test(s))
    return permanent(AGENT_ERROR.badCredentials, `the forge refused the credentials for ${repository}: ${err.message}`);
  if (/does not appear to be a git repository|Repository not found|not found|No such file or directory|returned error: 404/i.test(s))
    return permanent(AGENT_ERROR.repositoryNotFound, `repository ${repository} was not found: ${err.message}`);
  return transient(AGENT_ERROR.gitFailed, err.message);
}
