import { TOKEN_FORGES, type Project } from '../../core/tenants/index.js';
import type { ActivityServices } from '../services.js';
import { AGENT_ERROR, permanent } from './errors.js';
import type { GitAuth } from './git.js';

export type ProjectDeps = Pick<ActivityServices, 'tenants'>;

export async function loadProject(services: ProjectDeps, projectId: string): Promise<Project> {
  const project = await services.tenants.getProject(projectId);
  if (!project) throw permanent(AGENT_ERROR.projectNotFound, `project ${projectId} no longer exists`);
  return project;
}

const FORGE_NAMES: Record<Project['forge'], string> = { local: 'the local forge', github: 'GitHub', gitlab: 'GitLab' };

export type ForgeTokenDeps = Pick<ActivityServices, 'secrets' | 'config'>;

/** The host of a clone URL (`https://host/…` or scp-like `git@host:…`); undefined for a local path. */
function repositoryHost(repository: string): string | undefined {
  if (URL.canParse(repository)) return new URL(repository).hostname;
  return /^[^@/\s]+@([^:/\s]+):/.exec(repository)?.[1];
}

/**
 * The forge token of a GitHub or GitLab project, read by variable name; local repositories need none.
 * A GitHub token goes only to GitHub: the repository must be on github.com, or on the host of
 * GITHUB_API_URL (GitHub Enterprise Server), or git would send the token to whatever host it names.
 */
export function forgeToken(services: ForgeTokenDeps, project: Project): string | undefined {
  if (!TOKEN_FORGES.includes(project.forge)) return undefined;
  const forge = FORGE_NAMES[project.forge];
  if (!project.forgeTokenEnv)
    throw permanent(AGENT_ERROR.badCredentials, `project ${project.id} uses ${forge} but names no token variable (forgeTokenEnv)`);
  if (project.forge === 'github') {
    const apiHost = new URL(services.config.githubApiUrl).hostname;
    const githubHost = apiHost === 'api.github.com' ? 'github.com' : apiHost;
    const host = repositoryHost(project.repository);
    if (host !== githubHost) {
      throw permanent(AGENT_ERROR.badCredentials, `project ${project.id} uses GitHub, whose token is sent only to ${githubHost}, but its repository is ${host ? `on ${host}` : 'not a URL'}`);
    }
  }
  const token = services.secrets(project.forgeTokenEnv);
  if (!token) throw permanent(AGENT_ERROR.badCredentials, `the variable ${project.forgeTokenEnv} holding the ${forge} token is not set on the worker`);
  return token;
}

export type GitAuthDeps = Pick<ActivityServices, 'secrets' | 'config'>;

/**
 * The agent's git identity and credentials for `project`. `pin`: where private targets are refused,
 * the addresses the repository's host was checked at (`checkTarget`), which git then connects to;
 * git also follows no redirect there: the host checked is the one it talks to.
 */
export function gitAuthFor(services: GitAuthDeps, project: Project, pin?: string): GitAuth {
  const token = forgeToken(services, project);
  const { authorName, authorEmail } = services.config.agent;
  const guard = services.config.allowPrivateTargets ? {} : { followRedirects: false, ...(pin ? { pin } : {}) };
  return token ? { authorName, authorEmail, token, ...guard } : { authorName, authorEmail, ...guard };
}
