import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowFailedError } from '@temporalio/client';
import { SingleBar } from 'cli-progress';
import {
  INDEX_DOMAIN_WORKFLOW,
  indexDomainStartOptions,
  type IndexDomainResult,
  type IndexDomainWorkflow,
} from '../../core/contracts/index.js';
import { UsageError, type CliContext } from './context.js';
import { defineCommand, idAlone } from './flags.js';
import { embeddingProgress, readIndexProgress } from './index-progress.js';

const POLL_MS = 300;
const NO_TTY_LINE_MS = 2000;

/**
 * `quire index DOMAIN`: starts (or joins) the domain's indexing workflow,
 * shows its progress as a bar, then prints the summary. Exit code 0 when the
 * run completed, 1 when it failed.
 */
export const indexCommand = defineCommand({
  summary: 'Starts (or joins) the indexing of a domain, shows its progress, then prints the summary.',
  usage: ['DOMAIN'],
  flags: {},
  opens: 'platform',
  check([domainId, ...rest]) {
    if (!domainId || rest.length > 0) throw new UsageError('quire index DOMAIN');
    idAlone('DOMAIN', domainId);
  },
  run: ([domainId], _values, ctx) => indexDomain(domainId ?? '', ctx),
});

async function indexDomain(domainId: string, ctx: CliContext): Promise<number> {
  const domain = await ctx.tenants.getDomain(domainId);
  if (!domain) throw new Error(`unknown domain '${domainId}'; create it first with: quire domains add ORG/${domainId} --source URL_OR_PATH`);

  const handle = await ctx.temporal.workflow.signalWithStart<IndexDomainWorkflow>(INDEX_DOMAIN_WORKFLOW, indexDomainStartOptions(domain.id, ctx.config.temporal.taskQueue));
  ctx.out.write(`indexing ${domain.id} (workflow ${handle.workflowId}, run ${handle.signaledRunId})\n`);
  // Without a terminal (logs, CI) the bar prints a line every few seconds instead of redrawing.
  const bar = new SingleBar({
    stream: ctx.out,
    format: '  {bar} {value}/{total} pages{embedding}',
    hideCursor: true,
    clearOnComplete: false,
    noTTYOutput: true,
    notTTYSchedule: NO_TTY_LINE_MS,
  });
  let started = false;
  const outcome = handle.result().then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  let finished: Awaited<typeof outcome> | undefined;
  while (!finished) {
    finished = await Promise.race([outcome, sleep(POLL_MS).then(() => undefined)]);
    if (finished) break;
    const progress = await readIndexProgress(handle).catch(() => undefined);
    if (progress) {
      const payload = { embedding: embeddingProgress(progress) };
      if (!started) bar.start(progress.pageTotal, progress.pages, payload);
      started = true;
      bar.update(progress.pages, payload);
    }
  }
  if (started) bar.stop();
  if ('error' in finished) {
    const err = finished.error;
    const reason = err instanceof WorkflowFailedError && err.cause ? err.cause.message : err instanceof Error ? err.message : String(err);
    ctx.out.write(`indexing failed: ${reason}\n`);
    return 1;
  }
  ctx.out.write(formatSummary(finished.result));
  return 0;
}

export function formatSummary(r: IndexDomainResult): string {
  const lines = [
    `indexed ${r.domainId}: ${r.pages} pages, ${r.added} added, ${r.updated} updated, ${r.removed} removed, ` +
      `${r.unchanged} unchanged, ${r.chunks} chunks written in ${r.seconds}s`,
  ];
  if (r.vectors > 0) lines.push(`${r.vectors} pages embedded, ${r.cachedVectors} of them from the vector cache`);
  if (r.brokenCount > 0) {
    lines.push(`${r.brokenCount} page(s) could not be read:`);
    for (const b of r.broken) lines.push(`  ${b.path}: ${b.reason}`);
  }
  return lines.join('\n') + '\n';
}
