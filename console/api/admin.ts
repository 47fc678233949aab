import { request } from './client.js';

export interface DomainSummary {
  id: string;
  baseUrl: string;
}

export interface ProjectSummary {
  id: string;
  repository: string;
}

export async function listDomains(): Promise<DomainSummary[]> {
  return (await request<{ domains: DomainSummary[] }>('/v2/admin/domains')).domains;
}

export async function listProjects(): Promise<ProjectSummary[]> {
  return (await request<{ projects: ProjectSummary[] }>('/v2/admin/projects')).projects;
}
