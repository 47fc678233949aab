import type { IndexErrorCode } from '../data/indexing.js';
import { ApiError, request } from './client.js';

/**
 * The admin API as the Settings page uses it. Every form posts what the person
 * typed; the API's own schemas check it and a 400 names the field.
 */

export interface Domain {
  id: string;
  source: string;
  branch?: string;
  docsPath: string;
  baseUrl: string;
  includeHidden: boolean;
  supportContact?: string;
  allowedOrigins?: string[];
  /** The name of the API's variable holding the push hook's secret; never the secret. */
  pushSecretEnv?: string;
  /** Minutes between polls of the docs branch for a new commit to index; absent: not polled. */
  pollMinutes?: number;
  createdAt: string;
  updatedAt: string;
}

export interface IndexStatus {
  status: 'running' | 'completed' | 'failed' | 'canceled' | 'terminated' | 'timed_out' | 'continued_as_new' | 'unknown';
  startedAt: string;
  closedAt: string | null;
  progress: { phase: 'checkout' | 'indexing' | 'cleanup' | 'done'; done: number; total: number; embedded: number } | null;
  /** The commit of the docs the run indexed, when it has finished and knows it. */
  commit?: string | null;
  pages?: number | null;
  /** Why a run that did not complete ended, in the worker's words (not shown: it may name the server's paths). */
  error?: string | null;
  /** What kind of failure that was: what the console says, and what to do, is chosen by it. */
  errorCode?: IndexErrorCode | null;
  /** A polled domain's failed head: polls leave it until retryAt (a new head is indexed at once). */
  pollBackoff?: { head: string; failures: number; retryAt: string } | null;
}

export interface Key {
  id: string;
  kind: 'admin' | 'assistant';
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  expiresAt: string | null;
  revokedAt: string | null;
}

export interface Project {
  id: string;
  repository: string;
  branch: string;
  docsPath: string;
  forge: 'local' | 'github' | 'gitlab';
  forgeTokenEnv?: string;
  allowedModels: string[];
}

export interface Automation {
  id: string;
  cron: string | null;
  interval: string | null;
  timezone: string;
  prompt: string;
  paused: boolean;
  note: string | null;
  nextRunTimes: string[];
  lastRun: { at: string; jobId: string | null } | null;
}

export interface Delivery {
  deliveryId: string;
  url: string;
  event: string;
  jobId: string;
  status: 'pending' | 'delivered' | 'failed' | 'abandoned';
  statusCode: number | null;
  attempts: number;
  lastError: string | null;
  updatedAt: string;
}

const id = encodeURIComponent;

export const domains = {
  list: async () => (await request<{ domains: Domain[] }>('/v2/admin/domains')).domains,
  create: (body: Record<string, unknown>) => request<Domain>('/v2/admin/domains', { method: 'POST', body }),
  update: (domainId: string, patch: Record<string, unknown>) => request<Domain>(`/v2/admin/domains/${id(domainId)}`, { method: 'PATCH', body: patch }),
  /** The latest indexing run, or null when the domain was never indexed. */
  indexStatus: async (domainId: string): Promise<IndexStatus | null> => {
    try {
      return await request<IndexStatus>(`/v2/admin/domains/${id(domainId)}/index`);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return null;
      throw err;
    }
  },
  reindex: (domainId: string) => request<IndexStatus>(`/v2/admin/domains/${id(domainId)}/index`, { method: 'POST' }),
};

export const keys = {
  list: async () => (await request<{ keys: Key[] }>('/v2/admin/keys')).keys,
  create: (body: { kind: string; expiresAt?: string }) => request<Key & { secret: string }>('/v2/admin/keys', { method: 'POST', body }),
  revoke: (keyId: string) => request<void>(`/v2/admin/keys/${id(keyId)}`, { method: 'DELETE' }),
};

export const projects = {
  list: async () => (await request<{ projects: Project[] }>('/v2/admin/projects')).projects,
  create: (body: Record<string, unknown>) => request<Project>('/v2/admin/projects', { method: 'POST', body }),
  update: (projectId: string, patch: Record<string, unknown>) => request<Project>(`/v2/admin/projects/${id(projectId)}`, { method: 'PATCH', body: patch }),
};

const automationsPath = (projectId: string, automationId?: string) => `/v2/agent/${id(projectId)}/automations${automationId ? `/${id(automationId)}` : ''}`;

export const automations = {
  list: async (projectId: string) => (await request<{ automations: Automation[] }>(automationsPath(projectId))).automations,
  create: (projectId: string, body: Record<string, unknown>) => request<Automation>(automationsPath(projectId), { method: 'POST', body }),
  pause: (projectId: string, automationId: string) => request<Automation>(`${automationsPath(projectId, automationId)}/pause`, { method: 'POST', body: {} }),
  resume: (projectId: string, automationId: string) => request<Automation>(`${automationsPath(projectId, automationId)}/resume`, { method: 'POST', body: {} }),
  remove: (projectId: string, automationId: string) => request<void>(automationsPath(projectId, automationId), { method: 'DELETE' }),
};

export interface Webhook {
  id: string;
  url: string;
  events: string[];
  secret: string;
  createdAt: string;
}

const webhooksPath = (projectId: string) => `/v2/agent/${id(projectId)}/webhooks`;

export const webhooks = {
  list: async (projectId: string) => (await request<{ webhooks: Webhook[] }>(webhooksPath(projectId))).webhooks,
  create: (projectId: string, body: Record<string, unknown>) => request<Webhook & { signingSecret: string | null }>(webhooksPath(projectId), { method: 'POST', body }),
  remove: (projectId: string, webhookId: string) => request<void>(`${webhooksPath(projectId)}/${id(webhookId)}`, { method: 'DELETE' }),
  deliveries: async (projectId: string) => (await request<{ deliveries: Delivery[] }>(`/v2/agent/${id(projectId)}/webhooks/deliveries`, { query: { limit: 20 } })).deliveries,
};
