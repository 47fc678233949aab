import { request } from './client.js';
import type { ResponseOf } from './responses.js';

/** What the top bar's picker and the pages need of a domain and a project (the listings answer more). */
export type DomainSummary = Pick<ResponseOf<'adminListDomains'>['domains'][number], 'id' | 'baseUrl'>;
export type ProjectSummary = Pick<ResponseOf<'adminListProjects'>['projects'][number], 'id' | 'repository'>;

export async function listDomains(): Promise<DomainSummary[]> {
  return (await request<ResponseOf<'adminListDomains'>>('/v2/admin/domains')).domains;
}

export async function listProjects(): Promise<ProjectSummary[]> {
  return (await request<ResponseOf<'adminListProjects'>>('/v2/admin/projects')).projects;
}
