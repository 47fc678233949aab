import { ApiError, request } from './client.js';
import type { RequestOf, ResponseOf } from './responses.js';

/**
 * The admin API as the Settings page uses it. Every form posts what the person
 * typed; the API's own schemas check it and a 400 names the field.
 */

/** A domain as `GET /v2/admin/domains/{domainId}` answers it. */
export type Domain = ResponseOf<'adminGetDomain'>;
/** A language a domain's pages may be stemmed in (a primary subtag: `de`). */
export type DomainLanguage = ResponseOf<'adminListLanguages'>['languages'][number];
/** A domain's latest indexing run. */
export type IndexStatus = ResponseOf<'adminIndexStatus'>;
/** A key as listed: never its secret, which only its creation answers (`KeyCreated`). */
export type Key = ResponseOf<'adminListKeys'>['keys'][number];
export type KeyCreated = ResponseOf<'adminCreateKey', 201>;
export type Project = ResponseOf<'adminGetProject'>;
export type Automation = ResponseOf<'getAutomation'>;
export type Delivery = ResponseOf<'listWebhookDeliveries'>['deliveries'][number];
/** A webhook as listed; its creation answers the signing secret once too (`WebhookCreated`). */
export type Webhook = ResponseOf<'listWebhooks'>['webhooks'][number];
export type WebhookCreated = ResponseOf<'createWebhook', 201>;

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
  /** The languages the API stems, for the language a domain's form offers. */
  languages: async () => (await request<ResponseOf<'adminListLanguages'>>('/v2/admin/languages')).languages,
};

export const keys = {
  list: async () => (await request<{ keys: Key[] }>('/v2/admin/keys')).keys,
  create: (body: RequestOf<'adminCreateKey'>) => request<KeyCreated>('/v2/admin/keys', { method: 'POST', body }),
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

const webhooksPath = (projectId: string) => `/v2/agent/${id(projectId)}/webhooks`;

export const webhooks = {
  list: async (projectId: string) => (await request<{ webhooks: Webhook[] }>(webhooksPath(projectId))).webhooks,
  create: (projectId: string, body: Record<string, unknown>) => request<WebhookCreated>(webhooksPath(projectId), { method: 'POST', body }),
  remove: (projectId: string, webhookId: string) => request<void>(`${webhooksPath(projectId)}/${id(webhookId)}`, { method: 'DELETE' }),
  deliveries: async (projectId: string) => (await request<{ deliveries: Delivery[] }>(`/v2/agent/${id(projectId)}/webhooks/deliveries`, { query: { limit: 20 } })).deliveries,
};
