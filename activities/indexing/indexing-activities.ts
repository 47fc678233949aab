import path from 'node:path';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { scrubSecrets } from '../../core/logger.js';
import {
  checkoutDocs,
  indexFiles,
  listPageFiles,
  openDocIndex,
  removeDeletedPages,
  type WritableDocIndex,
} from '../../core/retrieval/index.js';
import { ModelError } from '../../core/model/index.js';
import { modelFailure } from '../model-failure.js';
import type { ActivityServices } from '../services.js';
import { INDEXING_ERROR } from '../../core/contracts/index-domain.js';
import { type IndexBatchInput, type IndexBatchResult, type IndexDomainInput, type PreparedDomain } from './types.js';

/** Heartbeats carry progress; more often than this only adds load. */
const HEARTBEAT_EVERY_MS = 1000;

/**
 * The indexing activities: check out a domain's docs, index a batch of page
 * files, remove pages whose files are gone. They read the source and write
 * the index themselves, so no page text passes through workflow history.
 */
export function createIndexingActivities(services: ActivityServices) {
  let opened: WritableDocIndex | undefined;
  const docIndex = () => (opened ??= services.docIndex ?? openDocIndex(services.config, services.redis));

  async function domainOf(domainId: string) {
    const domain = await services.tenants.getDomain(domainId);
    if (!domain) throw ApplicationFailure.nonRetryable(`unknown domain '${domainId}'`, INDEXING_ERROR.unknownDomain);
    return domain;
  }

  return {
    async prepareDomainIndex(input: IndexDomainInput): Promise<PreparedDomain> {
      const domain = await domainOf(input.domainId);
      let docsRoot: string;
      try {
        docsRoot = await checkoutDocs(domain.source, domain.branch, domain.docsPath, path.join(services.config.dataDir, 'sources'));
      } catch (err) {
        // Clone URLs may carry credentials; git repeats them in its messages.
        throw new Error(`cannot check out the docs of '${domain.id}': ${scrubSecrets(err instanceof Error ? err.message : String(err))}`);
      }
      return { docsRoot, files: await listPageFiles(docsRoot), includeHidden: domain.includeHidden };
    },

    async indexDomainPages(input: IndexBatchInput): Promise<IndexBatchResult> {
      let last = 0;
      return indexFiles(docIndex(), input.domainId, input.docsRoot, input.files, {
        includeHidden: input.includeHidden,
        onProgress: (done) => {
          const now = Date.now();
          if (now - last < HEARTBEAT_EVERY_MS && done < input.files.length) return;
          last = now;
          Context.current().heartbeat({ done, total: input.files.length });
        },
      }).catch((err: unknown) => {
        // An embedding failure: a bad key ends the indexing, a rate limit waits as the provider asks.
        throw err instanceof ModelError ? modelFailure(err) : err;
      });
    },

    async removeDeletedDomainPages(input: { domainId: string; docsRoot: string }): Promise<number> {
      return removeDeletedPages(docIndex(), input.domainId, input.docsRoot);
    },
  };
}

export type IndexingActivities = ReturnType<typeof createIndexingActivities>;
