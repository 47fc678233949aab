import fs from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { DocsFolderOutsideError, publicSource } from '../../core/git/index.js';
import { scrubSecrets } from '../../core/logger.js';
import { withoutServerPaths } from '../../core/server-paths.js';
import type { Domain } from '../../core/tenants/index.js';
import {
  checkedOutCommit,
  checkoutDocs,
  indexFiles,
  listPageFiles,
  removeDeletedPages,
  type WritableDocIndex,
} from '../../core/retrieval/index.js';
import { ModelError } from '../../core/model/index.js';
import { activitySignal, keepAlive } from '../activity-context.js';
import { modelFailure } from '../model-failure.js';
import { sourceGuard } from './source-guard.js';
import type { ActivityServices } from '../services.js';
import { INDEXING_ERROR, type IndexBatchHeartbeat } from '../../core/contracts/index-domain.js';
import type { IndexBatchInput, IndexBatchResult, IndexDomainInput, PreparedDomain } from './types.js';

/** The source as the docs team knows it: its URL without credentials, or, for a folder on the server, no path. */
const sourceName = (source: string): string => {
  const shown = publicSource(source);
  return shown ? `the source '${shown}'` : 'the source (a folder on the server)';
};

/** The docs folder as the domain gives it, relative to the repository. */
const docsFolderName = (docsPath: string): string => docsPath.replace(/^\/+|\/+$/g, '') || '.';

/**
 * Why a checkout failed, in words the docs team knows: the source as configured (credentials
 * masked) and the docs folder relative to the repository, never the worker's checkout or data
 * folder, nor a folder source's path (the status shows this message to the organisation's admins).
 */
function checkoutFailure(domain: Pick<Domain, 'id' | 'source'>, err: unknown): ApplicationFailure {
  // Clone URLs may carry credentials; git repeats them in its messages, and names its folders.
  const reason = withoutServerPaths(scrubSecrets(err instanceof Error ? err.message : String(err)));
  if (err instanceof DocsFolderOutsideError) return ApplicationFailure.nonRetryable(`cannot read the docs of '${domain.id}': ${reason}`, INDEXING_ERROR.docsFolderOutside);
  const message = `cannot fetch the docs of '${domain.id}' from ${sourceName(domain.source)}: ${reason}`;
  return ApplicationFailure.create({ type: INDEXING_ERROR.checkoutFailed, message, nonRetryable: false });
}

/** What indexing uses: the domains, the docs index it writes and the embeddings. */
export type IndexingActivityDeps = Pick<ActivityServices, 'tenants' | 'docIndex' | 'embeddings' | 'config' | 'metrics'>;

/**
 * The indexing activities: check out a domain's docs, index a batch of page
 * files, remove pages whose files are gone. They read the source and write
 * the index themselves, so no page text passes through workflow history.
 */
export function createIndexingActivities(services: IndexingActivityDeps) {
  const { docIndex } = services;
  const chunkEmbedding = services.embeddings.configured ? services.embeddings.chunks : undefined;

  async function domainOf(domainId: string) {
    const domain = await services.tenants.getDomain(domainId);
    if (!domain) throw ApplicationFailure.nonRetryable(`unknown domain '${domainId}'`, INDEXING_ERROR.unknownDomain);
    return domain;
  }

  /**
   * The index as a run writes it: each write first makes sure the domain still exists, so a batch
   * that had not yet heard its run was stopped (the domain deleted) does not write its index again.
   */
  const writerOf = (domainId: string): WritableDocIndex =>
    new Proxy(docIndex, {
      get: (target, name) => {
        if (name === 'applyChanges')
          return async (...args: Parameters<WritableDocIndex['applyChanges']>) => {
            await domainOf(domainId);
            return target.applyChanges(...args);
          };
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });

  return {
    async prepareDomainIndex(input: IndexDomainInput): Promise<PreparedDomain> {
      const domain = await domainOf(input.domainId);
      const guard = await sourceGuard(services.config, domain);
      let docsRoot: string;
      try {
        // Each domain its own checkout: another domain's run on the same repository never moves it mid-run.
        const cacheDir = path.join(services.config.dataDir, 'sources', domain.id);
        const signal = activitySignal();
        docsRoot = await checkoutDocs(domain.source, domain.branch, domain.docsPath, cacheDir, { ...(signal ? { signal } : {}), ...guard });
      } catch (err) {
        throw checkoutFailure(domain, err);
      }
      // A docs folder the source does not have fails the run as such, not as a file the worker could not read; another try finds the same.
      if (!(await fs.stat(docsRoot).then((s) => s.isDirectory(), () => false))) {
        const where = domain.branch ? `branch '${domain.branch}' of ${sourceName(domain.source)}` : sourceName(domain.source);
        throw ApplicationFailure.nonRetryable(`the docs folder '${docsFolderName(domain.docsPath)}' of '${domain.id}' is not in ${where}`, INDEXING_ERROR.docsFolderMissing);
      }
      const commit = await checkedOutCommit(docsRoot);
      return {
        docsRoot,
        ...(commit ? { commit } : {}),
        pageCount: (await listPageFiles(docsRoot)).length,
        includeHidden: domain.includeHidden,
        heartbeatSeconds: services.config.indexing.heartbeatSeconds,
      };
    },

    /**
     * Heartbeats on a timer for the whole batch (a slow embedder may take minutes per request).
     * A retry resumes: pages already written are unchanged by hash, and every finished
     * embeddings request is in the vector cache, so only unfinished work is redone.
     */
    async indexDomainPages(input: IndexBatchInput): Promise<IndexBatchResult> {
      const progress: IndexBatchHeartbeat = { pages: 0, embedded: 0, toEmbed: 0 };
      const stopHeartbeats = keepAlive(services.config.indexing.heartbeatSeconds, () => ({ ...progress }));
      const signal = activitySignal();
      try {
        const files = input.files ?? (await listPageFiles(input.docsRoot)).slice(input.first ?? 0, (input.first ?? 0) + (input.count ?? 0));
        // Read from the record at each batch (it is not part of the run's input): its pages are stemmed in its language.
        const { language } = await domainOf(input.domainId);
        const summary = await indexFiles(writerOf(input.domainId), input.domainId, input.docsRoot, files, {
          includeHidden: input.includeHidden,
          ...(language ? { language } : {}),
          embedding: chunkEmbedding && { ...chunkEmbedding, ...(signal ? { signal } : {}) },
          onProgress: (done) => (progress.pages = done),
          onEmbedded: (ready, total) => Object.assign(progress, { embedded: ready, toEmbed: total }),
        });
        // Pages written (new or changed); unchanged pages cost nothing and are not counted.
        services.metrics.indexing.pagesIndexed(summary.added + summary.updated);
        return summary;
      } catch (err) {
        // An embedding failure: a bad key ends the indexing, a rate limit waits as the provider asks.
        throw err instanceof ModelError ? modelFailure(err) : err;
      } finally {
        stopHeartbeats();
      }
    },

    async removeDeletedDomainPages(input: { domainId: string; docsRoot: string }): Promise<number> {
      return removeDeletedPages(writerOf(input.domainId), input.domainId, input.docsRoot);
    },
  };
}

export type IndexingActivities = ReturnType<typeof createIndexingActivities>;
