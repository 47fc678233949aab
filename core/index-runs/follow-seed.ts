import type { Client } from '@temporalio/client';
import type { SeedOutcome } from '../tenants/seed-file.js';
import type { TenantStore } from '../tenants/index.js';
import { reindexOnLanguageChange } from './language-change.js';
import { syncDomainPollSchedules } from './poll-schedule.js';

/**
 * What a start does in Temporal after applying the seed file: its domains' poll schedules, and an
 * index run of each domain whose language the file changed, as a `PATCH` of the language starts one.
 * A run that cannot start (Temporal out of reach) puts that domain's language back, so its pages
 * and its questions keep being cut alike, and the next start, finding the change again, retries.
 */
export async function followSeed(temporal: Client, taskQueue: string, tenants: Pick<TenantStore, 'putDomain'>, outcome: SeedOutcome): Promise<void> {
  // Every changed domain is either indexed again or put back, whatever befell the others; the first failure is thrown at the end.
  const failures: unknown[] = [];
  for (const { domain, before } of outcome.languageChanges) {
    const { createdAt: _created, updatedAt: _updated, language: _language, ...rest } = domain;
    const restore = (language: string | undefined) => tenants.putDomain(language ? { ...rest, language } : rest);
    await reindexOnLanguageChange({ temporal, taskQueue, restore }, domain.id, { language: before }, domain).catch((err: unknown) => failures.push(err));
  }
  if (failures.length > 0) throw failures[0];
  await syncDomainPollSchedules(temporal, taskQueue, outcome.domains);
}
