import { request } from './client.js';
import type { ResponseOf, SchemaOf } from './responses.js';

/** The job object of `GET /v2/agent/{projectId}/job/{id}`. */
export type Job = ResponseOf<'getAgentJob'>;
export type JobStatus = Job['status'];

/** One event of the job event stream (`GET …/job/{id}/events`): the JSON of each frame's `data:`. */
export type JobEvent = SchemaOf<'JobEvent'>;

const jobPath = (projectId: string, jobId?: string) => `/v2/agent/${encodeURIComponent(projectId)}/job${jobId ? `/${encodeURIComponent(jobId)}` : ''}`;

/** One page of a project's jobs, newest first, and where the next (older) one starts. */
export type JobsPage = ResponseOf<'listAgentJobs'>;

/** A project's newest jobs, or the page after `cursor` (the `nextCursor` of the page before). */
export function listJobs(projectId: string, cursor?: string): Promise<JobsPage> {
  return request<JobsPage>(`/v2/agent/${encodeURIComponent(projectId)}/jobs`, { query: { limit: 50, cursor } });
}

export const getJob = (projectId: string, jobId: string) => request<Job>(jobPath(projectId, jobId));

/** A follow-up message; `idempotencyKey` names it, so a retry that sends the same key runs one turn. */
export const sendMessage = (projectId: string, jobId: string, prompt: string, idempotencyKey: string) =>
  request<Job>(`${jobPath(projectId, jobId)}/message`, { method: 'POST', body: { prompt }, headers: { 'idempotency-key': idempotencyKey } });

export const startJob = (projectId: string, prompt: string) => request<Job>(jobPath(projectId), { method: 'POST', body: { prompt } });

/** Each frame names its event's type (`event:`); every type the document lists, so one added there and not here fails the build. */
const EVENT_TYPES: Record<JobEvent['type'], true> = {
  'turn.started': true,
  'tool.step': true,
  'todos.changed': true,
  'turn.finished': true,
  'pull_request.opened': true,
  'pull_request.updated': true,
  'job.completed': true,
  'job.failed': true,
  'job.archived': true,
};

/**
 * Follows a job's events after the one numbered `after` (0: from the start)
 * with the browser's EventSource: the session cookie goes with it, and a
 * reconnect sends Last-Event-ID. The caller stops it (the function
 * answered) once the job has ended: a closing event alone does not say so,
 * since a follow-up message opens the job again.
 */
export function followEvents(projectId: string, jobId: string, after: number, onEvent: (event: JobEvent) => void, onEnd: () => void): () => void {
  const source = new EventSource(`${jobPath(projectId, jobId)}/events${after > 0 ? `?lastEventId=${after}` : ''}`);
  const seen = new Set<number>();
  const handle = (message: MessageEvent<string>) => {
    let event: JobEvent;
    try {
      event = JSON.parse(message.data) as JobEvent;
    } catch {
      return;
    }
    // Its seq is the frame's id: an event seen before a reconnect is not shown twice.
    if (seen.has(event.seq)) return;
    seen.add(event.seq);
    onEvent(event);
  };
  for (const t of Object.keys(EVENT_TYPES)) source.addEventListener(t, handle as EventListener);
  source.onerror = () => {
    // The server ends the stream once the job has closed; anything else EventSource retries by itself.
    if (source.readyState === EventSource.CLOSED) onEnd();
  };
  return () => source.close();
}
