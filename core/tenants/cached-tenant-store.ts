import type { Logger } from '../logger.js';
import { authenticateSecret } from './authenticate.js';
import type { TenantCache } from './tenant-cache.js';
import type { TenantStore } from './types.js';

/**
 * The tenant store with the process's cache in front of the reads every request makes (a key by
 * its hash, a project, a domain, an organisation). Every change goes to the store, then forgets
 * the cache here and announces itself to the other processes (TenantCache), so this process reads
 * its own changes at once. Listings and console sessions are read from the store every time.
 */
export function cachedTenantStore(store: TenantStore, cache: TenantCache, logger: Logger): TenantStore {
  /** Runs a change, then forgets what may have changed: also when it failed, as it may have committed. */
  const change = <A extends unknown[], R>(write: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await write(...args);
      } finally {
        await cache.changed();
      }
    };

  const cached: TenantStore = {
    ...store,
    addOrg: change(store.addOrg),
    // Revoking the organisation's keys is announced as revoking one key is: every process forgets them at once.
    beginOrgDeletion: change(store.beginOrgDeletion),
    finishOrgDeletion: change(store.finishOrgDeletion),
    putProject: change(store.putProject),
    addProject: change(store.addProject),
    updateProject: change(store.updateProject),
    deleteProject: change(store.deleteProject),
    putDomain: change(store.putDomain),
    addDomain: change(store.addDomain),
    updateDomain: change(store.updateDomain),
    deleteDomain: change(store.deleteDomain),
    createKey: change(store.createKey),
    revokeKey: change(store.revokeKey),

    getOrg: (id) => cache.orgs.read(id, () => store.getOrg(id)),
    getProject: (id) => cache.projects.read(id, () => store.getProject(id)),
    getDomain: (id) => cache.domains.read(id, () => store.getDomain(id)),
    findKey: (hash) => cache.keys.read(hash, () => store.findKey(hash)),
    recordKeyUse: async (key, at) => {
      const used = { ...key, lastUsedAt: at };
      cache.keys.replace(key.hash, used);
      // Off the request's path: a lost write only makes `lastUsedAt` a minute or so older.
      store.recordKeyUse(key, at).catch((err: unknown) => logger.warn({ err, keyId: key.id }, 'recording a key’s last use failed'));
      return used;
    },
    authenticate: (secret) => authenticateSecret(cached, secret),
  };
  return cached;
}
