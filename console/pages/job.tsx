import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, rooted } from '../api/client.js';
import { followEvents, getJob, sendMessage, type Job, type JobEvent } from '../api/jobs.js';
import { messageOf } from '../components/async.js';
import { Page } from '../components/page.js';
import { clearDraft, readDraft, saveDraft, sendingKey } from '../data/drafts.js';
import { eventTimes } from '../data/event-times.js';

/** One job: its state, its events as they happen, its pull request, and a follow-up message. */
export function JobPage({ projectId = '', jobId = '' }: { path?: string; projectId?: string; jobId?: string }) {
  const [job, setJob] = useState<Job | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [events, setEvents] = useState<JobEvent[]>([]);
  const [live, setLive] = useState(false);
  const [round, setRound] = useState(0);
  // The last event shown: after a follow-up the stream is opened again from there, not replayed.
  const lastSeq = useRef(0);

  useEffect(() => {
    let current = true;
    getJob(projectId, jobId).then(
      (j) => current && setJob(j),
      (err: unknown) => current && setError(messageOf(err)),
    );
    setLive(true);
    const stop = followEvents(
      projectId,
      jobId,
      lastSeq.current,
      (event) => {
        lastSeq.current = Math.max(lastSeq.current, event.seq);
        setEvents((list) => (list.some((e) => e.seq === event.seq) ? list : [...list, event]));
        if (event.type.startsWith('pull_request.') || event.type.startsWith('job.') || event.type === 'turn.finished') {
          void getJob(projectId, jobId).then(
            (j) => {
              if (!current) return;
              setJob(j);
              // Ended, and not opened again by a later message: nothing more will come.
              if (event.type.startsWith('job.') && j.status !== 'active') end();
            },
            () => undefined,
          );
        }
      },
      () => end(),
    );
    function end() {
      stop();
      if (current) setLive(false);
    }
    return () => {
      current = false;
      stop();
    };
  }, [projectId, jobId, round]);

  // The job hides its link while a turn runs; the pull request is still there, as its events said.
  const opened = [...events].reverse().find((e) => e.type.startsWith('pull_request.') && typeof e.data.url === 'string');
  const prLink = job?.prLink ?? (opened ? String(opened.data.url) : null);
  const times = eventTimes(events.map((e) => e.time));

  return (
    <Page title={job?.title ?? `Job ${jobId}`} actions={<a href={rooted('/console/jobs')}>All jobs</a>}>
      {error ? <p role="alert" class="error">{error}</p> : null}
      {job ? (
        <section class="card job" aria-label="Job">
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <span class={`badge ${job.status}`} data-status={job.status}>
                {job.status}
              </span>
            </dd>
            <dt>Project</dt>
            <dd>{projectId}</dd>
            <dt>Branch</dt>
            <dd>
              <code>{job.branch}</code>
            </dd>
            <dt>Pull request</dt>
            <dd>
              {prLink ? (
                <a class="pr-link" href={prLink}>
                  {job.title ?? 'Open the pull request'}
                </a>
              ) : (
                'Not opened yet'
              )}
            </dd>
            <dt>Turns</dt>
            <dd>{job.turns}</dd>
          </dl>
          {job.summary ? <p class="summary">{job.summary}</p> : null}
          {job.error ? <p class="error">{job.error.message}</p> : null}
        </section>
      ) : null}
      <section aria-labelledby="events-heading">
        <h2 id="events-heading">
          Events {live ? <span class="badge active">live</span> : null}
        </h2>
        <ol class="events" aria-live="polite">
          {events.map((e, i) => (
            <li key={e.seq}>
              <time class="event-time" dateTime={e.time}>
                {times[i]}
              </time>{' '}
              <code>{e.type}</code> {describe(e)}
            </li>
          ))}
        </ol>
        {events.length === 0 ? <p class="hint">No events yet.</p> : null}
      </section>
      {job && job.status !== 'archived' ? <FollowUp projectId={projectId} jobId={jobId} onSent={() => setRound((n) => n + 1)} /> : null}
    </Page>
  );
}

function describe(e: JobEvent): string {
  const d = e.data;
  const text = (k: string) => (typeof d[k] === 'string' ? String(d[k]) : '');
  if (e.type === 'tool.step') return [text('tool'), text('path'), d.ok === false ? `failed: ${text('error')}` : ''].filter(Boolean).join(' ');
  if (e.type === 'turn.finished') return text('summary') || text('error');
  if (e.type.startsWith('pull_request.')) return text('title') || text('url');
  if (e.type.startsWith('job.')) return text('summary') || text('error');
  return '';
}

/**
 * Why a follow-up was not taken. A 503 `unavailable` means no worker took it in time: it may still
 * run, and sending it again is safe (the same key names it), which the API's own words leave to a developer.
 */
function followUpError(err: unknown): string {
  if (!(err instanceof ApiError)) return messageOf(err);
  if (err.status === 503 && err.code === 'unavailable') return 'The agent has not taken this message yet: it may be queued and still run. Sending it again is safe: it runs once.';
  return err.fieldMessage('prompt') ?? err.message;
}

function FollowUp({ projectId, jobId, onSent }: { projectId: string; jobId: string; onSent: () => void }) {
  const draft = `follow-up:${projectId}/${jobId}`;
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const field = form.elements.namedItem('prompt') as HTMLTextAreaElement;
    setError(null);
    if (!field.value.trim()) {
      setError('Write what the agent should change.');
      field.focus();
      return;
    }
    setBusy(true);
    try {
      await sendMessage(projectId, jobId, field.value, sendingKey(draft));
      field.value = '';
      clearDraft(draft);
      onSent();
    } catch (err) {
      setError(followUpError(err));
      field.focus();
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card follow-up" onSubmit={(e) => void submit(e)} noValidate>
      <div class="field">
        <label for="follow-up">Follow-up message</label>
        <textarea
          id="follow-up"
          name="prompt"
          rows={3}
          defaultValue={readDraft(draft)}
          onInput={(e) => saveDraft(draft, e.currentTarget.value)}
          aria-invalid={error ? 'true' : undefined} aria-describedby={error ? 'follow-up-error' : undefined} />
        {error ? (
          <p id="follow-up-error" class="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" disabled={busy}>
        {busy ? 'Sending…' : 'Send to the agent'}
      </button>
    </form>
  );
}
