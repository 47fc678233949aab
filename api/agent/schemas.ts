import * as v from 'valibot';
import { JOB_STATUSES, JobViewShape } from '../../core/jobs/index.js';
import { DeliverySchema, MAX_DELIVERIES } from '../../core/webhooks/index.js';

const prompt = v.pipe(
  v.string('prompt is required and must be a string'),
  v.minLength(1, 'prompt must not be empty'),
  // /\S/: the same whitespace String.prototype.trim removes.
  v.regex(/\S/, 'prompt must not be only whitespace'),
  // Nor only invisible format characters (zero-width spaces, joiners, direction marks): nothing to act on either.
  // (Whitespace alone is the rule above's: one problem per prompt.)
  v.check((text) => !/\S/.test(text) || /[^\s\p{Cf}]/u.test(text), 'prompt must not be only whitespace or invisible characters'),
  v.maxLength(100_000, 'prompt must be at most 100000 characters'),
  v.description('What to do; not only whitespace.'),
);

export const CreateJobBody = v.pipe(
  // Strict: a misspelt field (`draft` for `asDraft`) is refused, not ignored.
  v.strictObject({
    prompt,
    model: v.optional(
      v.pipe(v.string('model must be a string'), v.minLength(1, 'model must not be empty'), v.description('One the project allows; default the configured model.')),
    ),
    asDraft: v.optional(v.pipe(v.boolean('asDraft must be true or false'), v.description('Open the pull request as a draft.'))),
  }),
  v.examples([{ prompt: 'Add a troubleshooting section to the quickstart' }]),
);

export const MessageBody = v.pipe(v.strictObject({ prompt }), v.examples([{ prompt: 'Mention the Windows installer too' }]));

/** A `limit` query parameter: a whole number from 1 to `max`, `fallback` when absent. */
export const limitQuery = (max: number, fallback: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d+$/, 'limit must be a whole number'),
      v.description(`A whole number from 1 to ${max}; default ${fallback}.`),
      v.transform(Number),
      v.minValue(1, 'limit must be at least 1'),
      v.maxValue(max, `limit must be at most ${max}`),
    ),
    fallback,
  );

export const ListJobsQuery = v.object({
  status: v.optional(v.picklist(JOB_STATUSES, `status must be one of ${JOB_STATUSES.join(', ')}`)),
  limit: limitQuery(100, '20'),
  cursor: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512), v.description('The `nextCursor` of the previous page.'))),
});

/** A client may name its message so a retried POST is not processed twice. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

export const MessageHeaders = v.object({
  'Idempotency-Key': v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Names the message so a retried POST runs one turn; the same key with another prompt is refused (422). Honoured when it matches `^[A-Za-z0-9._:-]{8,128}$`, else ignored.',
      ),
    ),
  ),
});

export const CreateJobHeaders = v.object({
  'Idempotency-Key': v.optional(
    v.pipe(
      v.string(),
      v.description(
        'Names the job so a retried create makes one job: a repeat answers the job the key made, as it is now; the same key with another prompt is refused (422). Honoured when it matches `^[A-Za-z0-9._:-]{8,128}$`, else ignored.',
      ),
    ),
  ),
});

export const DeliveriesQuery = v.object({
  limit: limitQuery(MAX_DELIVERIES, '50'),
});

const segment = (description: string) => v.pipe(v.string(), v.minLength(1), v.description(description));
export const ProjectParams = v.object({ projectId: segment('A project of the key’s organisation.') });
export const JobParams = v.object({ ...ProjectParams.entries, id: segment('The job id (`job_…`).') });

const job = JobViewShape.entries;

/**
 * The job object of API.md, as `toJobView` writes it: the job's shape as core declares it
 * (core/jobs/job-schema.ts), with the document's wording added to its entries.
 */
export const JobViewSchema = v.object({
  ...job,
  source: v.object({ ...job.source.entries, repository: v.pipe(job.source.entries.repository, v.description('Never with credentials.')) }),
  model: v.pipe(job.model, v.description('Empty when no model is configured.')),
  prLink: v.pipe(job.prLink, v.description('The pull request; null while a turn runs or when nothing changed.')),
  branch: v.pipe(job.branch, v.description('The branch the agent pushes to (`quire/<id>`).')),
  title: v.pipe(job.title, v.description('The pull request’s title once a turn changed something, else the latest turn’s; null before the first turn ends.')),
  summary: v.pipe(
    job.summary,
    v.description(
      'The model’s message to the user for the last finished turn, or why nothing changed (then it starts “No files were changed.”); null before the first turn ends.',
    ),
  ),
  turns: v.pipe(job.turns, v.description('Turns that have ended (finished or failed); a running one is not counted.')),
  filesChanged: v.pipe(
    job.filesChanged,
    v.description('Docs-relative paths changed across the job’s turns, in the order first changed: the first 1,000 (the pull request shows every file).'),
  ),
  stopReason: v.pipe(
    job.stopReason,
    v.description(
      'The bound that stopped the last finished turn before the model finished (`QUIRE_AGENT_MAX_STEPS`, `…_MAX_TOKENS`, `…_MAX_SECONDS`); null when it finished on its own.',
    ),
  ),
  todos: v.pipe(job.todos, v.description('The agent’s plan as it last wrote it; updated when a turn ends.')),
  error: v.pipe(job.error, v.description('Only when `failed`.')),
});

export const JobPageSchema = v.object({ jobs: v.array(JobViewSchema), nextCursor: v.nullable(v.string()) });

const delivery = DeliverySchema.entries;

/** A webhook delivery as core declares it (core/webhooks/webhook-schema.ts), with the document's wording added. */
const DeliveryViewSchema = v.object({
  ...delivery,
  deliveryId: v.pipe(delivery.deliveryId, v.description('The `X-Quire-Delivery` header; the same on every attempt.')),
  status: v.pipe(delivery.status, v.description('`failed`: the last attempt failed and another follows; `abandoned`: retries gave up.')),
  statusCode: v.pipe(delivery.statusCode, v.description('The receiver’s answer; null when none came.')),
});

export const DeliveryListSchema = v.object({ deliveries: v.array(DeliveryViewSchema) });
