import type { WorkflowHandle } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { indexProgressQuery, type IndexBatchHeartbeat } from '../../core/contracts/index.js';

/** How far an indexing run is: pages read, and pages embedded out of those needing a vector so far. */
export interface IndexRunProgress {
  pages: number;
  pageTotal: number;
  embedded: number;
  /** Grows as batches are read; 0 when the run embeds nothing (keyword only, or nothing changed). */
  toEmbed: number;
}

function isBatchHeartbeat(value: unknown): value is IndexBatchHeartbeat {
  if (typeof value !== 'object' || value === null) return false;
  const fields: Record<string, unknown> = { ...value };
  return ['pages', 'embedded', 'toEmbed'].every((k) => typeof fields[k] === 'number');
}

/** The running page batch's last heartbeat, read from the workflow's pending activities. */
async function runningBatch(handle: WorkflowHandle): Promise<IndexBatchHeartbeat | undefined> {
  const { raw } = await handle.describe();
  for (const activity of raw.pendingActivities ?? []) {
    const payload = activity.heartbeatDetails?.payloads?.[0];
    if (!payload) continue;
    const details: unknown = defaultPayloadConverter.fromPayload(payload);
    if (isBatchHeartbeat(details)) return details;
  }
  return undefined;
}

/**
 * The workflow counts finished batches; the batch in flight reports through
 * its heartbeats (a slow embedder may spend minutes in one batch).
 * Undefined before the docs are checked out.
 */
export async function readIndexProgress(handle: WorkflowHandle): Promise<IndexRunProgress | undefined> {
  const finished = await handle.query(indexProgressQuery);
  if (finished.total === 0) return undefined;
  const running = finished.phase === 'indexing' ? await runningBatch(handle) : undefined;
  return {
    pages: Math.min(finished.total, finished.done + (running?.pages ?? 0)),
    pageTotal: finished.total,
    embedded: finished.embedded + (running?.embedded ?? 0),
    toEmbed: finished.embedded + (running?.toEmbed ?? 0),
  };
}

/** The progress line's embedding part, empty when nothing is embedded. */
export function embeddingProgress(p: IndexRunProgress): string {
  return p.toEmbed > 0 ? ` · ${p.embedded}/${p.toEmbed} pages embedded` : '';
}
