import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { IndexingActivities } from '../activities/indexing/index.js';
import {
  indexProgressQuery,
  reindexSignal,
  INDEXING_ERROR,
  type IndexDomainResult,
  type IndexDomainWorkflowInput,
  type IndexProgress,
} from '../core/contracts/index-domain.js';
import type { BrokenPage } from '../core/retrieval/index-docs.js';

/** Page files per activity: progress moves in these steps and a retry redoes at most this many. */
const PAGES_PER_BATCH = 250;
const MAX_BROKEN_REPORTED = 50;

const { prepareDomainIndex, removeDeletedDomainPages } = proxyActivities<IndexingActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: [INDEXING_ERROR.unknownDomain] },
});

/**
 * The page activities' options, from the worker's heartbeat setting (so the proxy is made per run).
 * A batch may embed for hours with a slow model: the heartbeat, not the start-to-close timeout,
 * tells a dead worker, and a retry resumes where the last attempt stopped, so attempts are cheap.
 */
const pageActivities = (heartbeatSeconds: number) =>
  proxyActivities<IndexingActivities>({
    startToCloseTimeout: '24 hours',
    heartbeatTimeout: `${heartbeatSeconds} seconds`,
    retry: { maximumAttempts: 5, nonRetryableErrorTypes: [INDEXING_ERROR.unknownDomain] },
  });

/**
 * Indexes a domain's docs: check out the source, index the page files in
 * batches (unchanged pages are skipped by hash), then drop pages whose files
 * are gone. A re-index asked for after the checkout (a start that joined this
 * run) is another pass over a fresh checkout, so what was pushed meanwhile is
 * indexed before the run completes. History holds counts and positions only,
 * whatever the site's size.
 */
export async function indexDomainWorkflow(input: IndexDomainWorkflowInput): Promise<IndexDomainResult> {
  const started = Date.now();
  const progress: IndexProgress = { phase: 'checkout', done: 0, total: 0, embedded: 0 };
  let requests = 0;
  setHandler(indexProgressQuery, () => progress);
  setHandler(reindexSignal, () => void requests++);

  let result: IndexDomainResult | undefined;
  for (;;) {
    const seen = requests;
    const pass = await indexPass(input.domainId, progress);
    result = result ? followingPass(result, pass) : pass;
    if (requests === seen) break;
    Object.assign(progress, { phase: 'checkout', done: 0, total: 0, embedded: 0 });
  }
  return { ...result, seconds: Math.round((Date.now() - started) / 100) / 10 };
}

/** A run's result after another pass: what that pass found, with the pages every pass wrote counted. */
function followingPass(before: IndexDomainResult, pass: IndexDomainResult): IndexDomainResult {
  return {
    ...pass,
    added: before.added + pass.added,
    updated: before.updated + pass.updated,
    removed: before.removed + pass.removed,
    chunks: before.chunks + pass.chunks,
    vectors: before.vectors + pass.vectors,
    cachedVectors: before.cachedVectors + pass.cachedVectors,
  };
}

/** One checkout of the source, indexed whole. */
async function indexPass(domainId: string, progress: IndexProgress): Promise<IndexDomainResult> {
  const prepared = await prepareDomainIndex({ domainId });
  // Histories of runs started before the setting existed lack it: they keep the old minute.
  const { indexDomainPages } = pageActivities(prepared.heartbeatSeconds ?? 60);
  progress.phase = 'indexing';
  // Runs prepared before page counts carry their file list in history; newer ones pass positions.
  const total = prepared.files?.length ?? prepared.pageCount ?? 0;
  progress.total = total;
  const totals = { added: 0, updated: 0, unchanged: 0, hidden: 0, chunks: 0, vectors: 0, cachedVectors: 0 };
  const broken: BrokenPage[] = [];
  let brokenCount = 0;
  for (let i = 0; i < total; i += PAGES_PER_BATCH) {
    const pages = prepared.files ? { files: prepared.files.slice(i, i + PAGES_PER_BATCH) } : { first: i, count: PAGES_PER_BATCH };
    const batch = await indexDomainPages({ domainId, docsRoot: prepared.docsRoot, ...pages, includeHidden: prepared.includeHidden });
    totals.added += batch.added;
    totals.updated += batch.updated;
    totals.unchanged += batch.unchanged;
    totals.hidden += batch.hidden;
    totals.chunks += batch.chunks;
    totals.vectors += batch.vectors ?? 0;
    totals.cachedVectors += batch.cachedVectors ?? 0;
    brokenCount += batch.broken.length;
    broken.push(...batch.broken.slice(0, MAX_BROKEN_REPORTED - broken.length));
    progress.done += Math.min(PAGES_PER_BATCH, total - i);
    progress.embedded += batch.vectors ?? 0;
  }
  progress.phase = 'cleanup';
  const deleted = await removeDeletedDomainPages({ domainId, docsRoot: prepared.docsRoot });
  progress.phase = 'done';
  return {
    domainId,
    ...(prepared.commit ? { commit: prepared.commit } : {}),
    pages: totals.added + totals.updated + totals.unchanged,
    added: totals.added,
    updated: totals.updated,
    removed: deleted + totals.hidden,
    unchanged: totals.unchanged,
    chunks: totals.chunks,
    vectors: totals.vectors,
    cachedVectors: totals.cachedVectors,
    seconds: 0,
    broken,
    brokenCount,
  };
}
