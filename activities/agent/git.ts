import { GitCommandError, runGit as run, scrubCredentials, withoutCredentials, type GitCredentials } from '../../core/git/index.js';
import { activitySignal } from '../activity-context.js';
import { permanent, transient, AGENT_ERROR } from './errors.js';

export { GitCommandError };

/** Identity and credentials of the agent's git commands; credentials go per command through core/git, never argv or .git/config. */
export interface GitAuth {
  authorName: string;
  authorEmail: string;
  /** HTTPS token of the forge (GitHub: user `x-access-token`). */
  token?: string;
  /** Credentials found in the repository URL itself, used when there is no token. */
  credentials?: GitCredentials;
  /** False: an HTTP redirect fails the command (private targets refused). */
  followRedirects?: boolean;
  /** The repository host's checked addresses, which git connects to (private targets refused; see core/git). */
  pin?: string;
}

function credentialsOf(auth: GitAuth): GitCredentials | undefined {
  return auth.token ? { username: 'x-access-token', password: auth.token } : auth.credentials;
}

/** Removes the token (and its Basic form) from text that may reach an error or a log. */
export function scrubToken(text: string, token: string | undefined): string {
  return scrubCredentials(text, token ? { username: 'x-access-token', password: token } : undefined);
}

/** Runs git as the agent: the one git policy of core/git, with the agent's identity and credentials. */
export function runGit(cwd: string, args: string[], auth: GitAuth, input?: string): Promise<string> {
  const credentials = credentialsOf(auth);
  // Inside an activity, a cancel (archive) or its timeout ends the command at once, helpers included.
  const signal = activitySignal();
  return run(cwd, args, {
    identity: { name: auth.authorName, email: auth.authorEmail },
    ...(credentials ? { credentials } : {}),
    ...(input !== undefined ? { input } : {}),
    ...(signal ? { signal } : {}),
    ...(auth.followRedirects === false ? { followRedirects: false } : {}),
    ...(auth.pin ? { pin: auth.pin } : {}),
  });
}

/** Classifies a failed remote git command (fetch, ls-remote, push) for Temporal. */
export function classifyGitError(err: unknown, repositoryUrl: string): Error {
  // The project's URL may carry credentials; messages name the repository without them.
  const repository = withoutCredentials(repositoryUrl).url;
  if (!(err instanceof GitCommandError)) return transient(AGENT_ERROR.gitFailed, String(err));
  const s = err.stderr;
  if (/Authentication failed|could not read Username|terminal prompts disabled|returned error: 40[13]|Permission denied|invalid credentials/i.test(s))
    return permanent(AGENT_ERROR.badCredentials, `the forge refused the credentials for ${repository}: ${err.message}`);
  if (/does not appear to be a git repository|Repository not found|not found|No such file or directory|returned error: 404/i.test(s))
    return permanent(AGENT_ERROR.repositoryNotFound, `repository ${repository} was not found: ${err.message}`);
  return transient(AGENT_ERROR.gitFailed, err.message);
}
