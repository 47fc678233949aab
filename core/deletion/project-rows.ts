import type { Queries } from '../db/index.js';

/** What a project's delete removed with its record, per table. */
export interface ProjectRowsDeleted {
  jobs: number;
  jobMessages: number;
  jobEvents: number;
  webhooks: number;
  webhookDeliveries: number;
  automations: number;
  pulls: number;
  gapJobs: number;
}

const count = (result: { numDeletedRows: bigint } | undefined) => Number(result?.numDeletedRows ?? 0n);

/**
 * How many of the project's jobs are active, read in the delete's transaction: one that is has a run
 * that would go on writing after the rows are gone. A job created after the delete began is refused
 * (the project's mark); one that became active again (a message to a finished job) is counted here.
 */
export async function activeJobsOf(trx: Queries, projectId: string): Promise<number> {
  const found = await trx.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).where('project_id', '=', projectId).where('status', '=', 'active').executeTakeFirstOrThrow();
  return Number(found.n);
}

/** The ids of the project's webhooks, read in the delete's transaction: their delivery workflows are ended once it commits. */
export async function webhookIdsOf(trx: Queries, projectId: string): Promise<string[]> {
  return (await trx.selectFrom('webhooks').select('id').where('project_id', '=', projectId).execute()).map((row) => row.id);
}

/**
 * Deletes, in the transaction that deletes the project's record, every row the project owns: its
 * jobs with their messages and event logs, its webhooks and their delivery log, its automations
 * (their schedules are gone already), the local forge's pull requests and the coverage gaps' links
 * to its jobs. A job's messages and events are found through the job (by its primary key, not a
 * scan of the event log): they are written with their job's record, under the same project.
 */
export async function deleteProjectRows(trx: Queries, projectId: string): Promise<ProjectRowsDeleted> {
  const jobsOf = trx.selectFrom('jobs').select('id').where('project_id', '=', projectId);
  const jobEvents = await trx.deleteFrom('job_events').where('job_id', 'in', jobsOf).executeTakeFirst();
  const jobMessages = await trx.deleteFrom('job_messages').where('job_id', 'in', jobsOf).executeTakeFirst();
  const jobs = await trx.deleteFrom('jobs').where('project_id', '=', projectId).executeTakeFirst();
  // Its webhooks before their log: an attempt recording its outcome holds its webhook (recordDelivery), so
  // one under way is waited for here and its row deleted next; one after finds no webhook and writes none.
  const webhooks = await trx.deleteFrom('webhooks').where('project_id', '=', projectId).executeTakeFirst();
  const webhookDeliveries = await trx.deleteFrom('webhook_deliveries').where('project_id', '=', projectId).executeTakeFirst();
  const automations = await trx.deleteFrom('automations').where('project_id', '=', projectId).executeTakeFirst();
  const pulls = await trx.deleteFrom('pulls').where('project_id', '=', projectId).executeTakeFirst();
  const gapJobs = await trx.deleteFrom('gap_jobs').where('project_id', '=', projectId).executeTakeFirst();
  return {
    jobs: count(jobs),
    jobMessages: count(jobMessages),
    jobEvents: count(jobEvents),
    webhooks: count(webhooks),
    webhookDeliveries: count(webhookDeliveries),
    automations: count(automations),
    pulls: count(pulls),
    gapJobs: count(gapJobs),
  };
}
