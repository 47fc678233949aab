import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { scrubSecrets } from '../logger.js';
import { inSpan } from '../telemetry/index.js';
import { basicHeader, scrubCredentials, type GitCredentials } from './credentials.js';

export interface GitOptions {
  /** HTTP credentials for this command only: sent as an `http.extraHeader` through GIT_CONFIG_* variables. */
  credentials?: GitCredentials;
  /** Author and committer of commits this command makes. */
  identity?: { name: string; email: string };
  /** Text for the command's standard input (a commit message read with `-F -`: no argument-size limit). */
  input?: string;
  /** Ends the command (and the transport helpers it runs) when it aborts: an activity cancelled or timed out. */
  signal?: AbortSignal;
  /** False: an HTTP redirect is an error (a host checked as public could send git on to a private one). */
  followRedirects?: boolean;
  /**
   * curl's `HOST:PORT:ADDRESS[,ADDRESS]` (`http.curloptResolve`): git connects to the addresses a
   * check found, and resolves nothing itself (a rebinding DNS cannot answer otherwise in between).
   */
  pin?: string;
}

/** A git command that failed; `stderr` is scrubbed of credentials; `exitCode` when it exited (not stopped, not started). */
export class GitCommandError extends Error {
  override name = 'GitCommandError';
  constructor(
    message: string,
    readonly stderr: string,
    readonly exitCode?: number,
  ) {
    super(message);
  }
}

/** Variables a git child may inherit: how to reach the network (proxies, CAs, an SSH agent), nothing about who the user is. */
const INHERITED = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'GIT_SSL_CAINFO', 'SSH_AUTH_SOCK', 'GIT_SSH_COMMAND'];

/**
 * The one environment every git command runs with: no user or system git
 * config (no credential helpers), no home folder (no ~/.netrc), no prompts,
 * and the credentials of this command only.
 */
export function gitEnvironment(options: GitOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: '/nonexistent',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    // Only the transports Quire's repositories use: no remote helper (ext:: would run a command).
    GIT_ALLOW_PROTOCOL: 'https:http:ssh:git:file',
    // An HTTP transfer under 1 KB/s for a minute (a host that takes the connection and never answers) fails.
    GIT_HTTP_LOW_SPEED_LIMIT: '1000',
    GIT_HTTP_LOW_SPEED_TIME: '60',
    LC_ALL: 'C',
  };
  for (const name of INHERITED) if (process.env[name]) env[name] = process.env[name];
  if (options.identity) {
    env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = options.identity.name;
    env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = options.identity.email;
  }
  // Settings of this command only, through GIT_CONFIG_* (never .git/config, never argv).
  const settings: Array<[string, string]> = [];
  if (options.credentials) settings.push(['http.extraHeader', `Authorization: ${basicHeader(options.credentials)}`]);
  if (options.followRedirects === false) settings.push(['http.followRedirects', 'false']);
  if (options.pin) settings.push(['http.curloptResolve', options.pin]);
  if (settings.length > 0) {
    env.GIT_CONFIG_COUNT = String(settings.length);
    settings.forEach(([key, value], i) => {
      env[`GIT_CONFIG_KEY_${i}`] = key;
      env[`GIT_CONFIG_VALUE_${i}`] = value;
    });
  }
  return env;
}

/** Runs git in `cwd`; rejects with a GitCommandError whose message and stderr carry no credentials. */
export function runGit(cwd: string, args: string[], options: GitOptions = {}): Promise<string> {
  // Only the subcommand is recorded: the other arguments may name URLs, paths or messages.
  return inSpan(`git ${args[0] ?? ''}`, { 'git.command': args[0] ?? '' }, () => execGit(cwd, args, options));
}

/**
 * util-linux's `setpriv`, where there is one (every Debian, the image's included): git runs under
 * it with a parent-death signal, so a process that is killed outright (SIGKILL, the OOM killer)
 * takes its git commands with it. Their own process group (below) keeps them out of a signal sent
 * to ours; without this, a killed worker's clone or push ran on, orphaned, in a workspace the next
 * worker's turn was about to use. Its transport helpers end once git's end of their pipes closes.
 */
const SETPRIV = process.platform === 'linux' ? ['/usr/bin/setpriv', '/bin/setpriv'].find((file) => fs.existsSync(file)) : undefined;

/** The command line that runs `git args` (under `setpriv` when there is one). */
function gitCommand(args: string[]): [string, string[]] {
  return SETPRIV ? [SETPRIV, ['--pdeathsig', 'KILL', '--', 'git', ...args]] : ['git', args];
}

/** The most output a command may give (a diff, a listing): past it, the command fails. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

function execGit(cwd: string, args: string[], options: GitOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(stopped(args, signal));
    // In a process group of its own, so a stop ends the transport helpers git starts too (git-remote-https, ssh):
    // killing git alone leaves them waiting on the network.
    const [command, argv] = gitCommand(args);
    const child = spawn(command, argv, { cwd, env: gitEnvironment(options), detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let overflow = false;
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) {
        overflow = true;
        stop();
      } else into.push(chunk);
    };
    child.stdout.on('data', collect(out));
    child.stderr.on('data', collect(err));
    signal?.addEventListener('abort', stop, { once: true });
    child.once('error', (e) => {
      signal?.removeEventListener('abort', stop);
      reject(new GitCommandError(`git ${args[0]} could not start: ${e.message}`, ''));
    });
    child.once('close', (code, killedBy) => {
      signal?.removeEventListener('abort', stop);
      if (signal?.aborted) return reject(stopped(args, signal));
      if (overflow) return reject(new GitCommandError(`git ${args[0]} failed: its output passed ${MAX_OUTPUT_BYTES} bytes`, ''));
      if (code === 0) return resolve(Buffer.concat(out).toString('utf8'));
      const stderr = Buffer.concat(err).toString('utf8') || `exited with ${code ?? killedBy}`;
      const detail = scrubSecrets(scrubCredentials(stderr, options.credentials)).trim();
      reject(new GitCommandError(`git ${args[0]} failed: ${summary(detail)}`, detail, code ?? undefined));
    });
    // A git that exits before reading it all closes the pipe; its exit status says what went wrong.
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  });
}

/** What git said went wrong, in one line: its `fatal:` and `error:` lines when it wrote any (progress lines come after them), else its last lines. */
function summary(stderr: string): string {
  const lines = stderr.split('\n').filter((l) => l.trim() !== '');
  const said = lines.filter((l) => /^(fatal|error):/.test(l));
  return (said.length > 0 ? said : lines).slice(-3).join(' ');
}

/** A command ended by its signal (the activity cancelled or timed out). */
function stopped(args: string[], signal: AbortSignal): GitCommandError {
  const reason: unknown = signal.reason;
  return new GitCommandError(`git ${args[0]} was stopped: ${reason instanceof Error ? reason.message : String(reason ?? 'aborted')}`, '');
}
