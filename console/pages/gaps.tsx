import { useEffect, useRef, useState } from 'preact/hooks';
import { route } from 'preact-router';
import { listProjects, type ProjectSummary } from '../api/admin.js';
import * as analytics from '../api/analytics.js';
import { ApiError, rooted } from '../api/client.js';
import { messageOf, Show, useLoad } from '../components/async.js';
import { LoadMore } from '../components/load-more.js';
import { Page } from '../components/page.js';
import { PeriodPicker, type PeriodProps } from '../components/period.js';
import { withPeriod } from '../data/period.js';
import type { Gap, GapsResponse } from '../data/shapes.js';

/** Questions the docs could not answer, grouped by topic; each can become an agent job. */
export function GapsPage({ domain, period, onPeriodChange }: { path?: string; domain: string } & PeriodProps) {
  const [loaded] = useLoad(async () => {
    const [first, projects] = await Promise.all([analytics.gaps(domain, period), listProjects()]);
    // No gap is news only when there were questions: a period nobody asked in has none either.
    const asked = first.gaps.length === 0 ? (await analytics.callerStats(domain, period)).total : null;
    return { first, projects, asked };
  }, [domain, period.dateFrom, period.dateTo]);

  return (
    <Page title="Gaps">
      <PeriodPicker period={period} onChange={onPeriodChange} />
      <Show loaded={loaded}>
        {({ first, projects, asked }) => (asked === 0 ? <NoQuestions /> : <GapList first={first} domain={domain} period={period} projects={projects} />)}
      </Show>
    </Page>
  );
}

/**
 * A period without a question has no gap either, which says nothing of the docs: rather than claim
 * they answered everything, the page says where questions come from.
 */
function NoQuestions() {
  return (
    <p class="empty">
      No questions in this period, so no gaps to show. Gaps come from the questions readers ask the assistant: once the widget is on your docs site (its tag is in{' '}
      <a href={rooted('/console/settings/domains')}>Settings, Domains</a>), the questions the docs could not answer show here.
    </p>
  );
}

/** The period's gaps, largest first, a page at a time (Show mounts it afresh for each period read). */
function GapList({ first, domain, period, projects }: { first: GapsResponse; domain: string; period: analytics.Period; projects: ProjectSummary[] }) {
  const [gaps, setGaps] = useState(first.gaps);
  const [cursor, setCursor] = useState(first.hasMore ? first.nextCursor : null);
  const loadMore = async () => {
    if (!cursor) return;
    const page = await analytics.gaps(domain, period, cursor);
    // Pages are read by offset: questions asked meanwhile can shift a gap onto the next page as well.
    setGaps((read) => [...read, ...page.gaps.filter((g) => !read.some((r) => r.id === g.id))]);
    setCursor(page.hasMore ? page.nextCursor : null);
  };
  if (gaps.length === 0) return <p class="empty">No gaps in this period: the docs answered every question.</p>;
  return (
    <>
      <ul class="list gaps" aria-label="Gaps">
        {gaps.map((gap) => (
          <GapCard key={gap.id} gap={gap} domain={domain} period={period} projects={projects} />
        ))}
      </ul>
      {cursor ? <LoadMore label="Load more gaps" load={loadMore} /> : null}
    </>
  );
}

function GapCard({ gap, domain, period, projects }: { gap: Gap; domain: string; period: analytics.Period; projects: ProjectSummary[] }) {
  const [open, setOpen] = useState(false);
  const headingId = `gap-${gap.id}`;
  return (
    <li class="card gap" aria-labelledby={headingId}>
      <h2 id={headingId}>{gap.topic.join(', ') || gap.id}</h2>
      <p class="meta">
        {gap.count} question{gap.count === 1 ? '' : 's'} · {gap.unanswered} unanswered · {gap.notHelpful} rated not helpful
      </p>
      <p>{gap.suggestion}</p>
      <h3>Examples</h3>
      <ul class="examples">
        {gap.examples.map(({ question, threadId }) => (
          <li key={question}>{threadId ? <a href={rooted(`/console/conversations/${encodeURIComponent(threadId)}${withPeriod('?back=gaps', period)}`)}>{question}</a> : question}</li>
        ))}
      </ul>
      {gap.jobs.length > 0 ? (
        <>
          <h3>Jobs</h3>
          <ul>
            {gap.jobs.map((j) => (
              <li key={j.jobId}>
                <a href={rooted(`/console/jobs/${encodeURIComponent(j.projectId)}/${encodeURIComponent(j.jobId)}`)}>{j.jobId}</a> ({j.status})
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {projects.length === 0 ? (
        // The agent works in a project's repository: without one the form would offer nothing to choose.
        <p class="hint no-project">
          To fix it with the agent, first <a href={rooted('/console/settings/projects')}>add the docs repository as a project</a> in Settings.
        </p>
      ) : open ? (
        <FixForm gap={gap} domain={domain} period={period} projects={projects} onCancel={() => setOpen(false)} />
      ) : (
        <button type="button" onClick={() => setOpen(true)} aria-expanded="false">
          Fix with the agent
        </button>
      )}
    </li>
  );
}

/** The job a gap becomes: the server writes its prompt from the gap; the reader picks the project. */
function FixForm({ gap, domain, period, projects, onCancel }: { gap: Gap; domain: string; period: analytics.Period; projects: ProjectSummary[]; onCancel: () => void }) {
  // The project named as the domain is the likely one, or the only one; otherwise the reader chooses:
  // a job on another project's repository would open its pull request there.
  const [projectId, setProjectId] = useState(projects.find((p) => p.id === domain)?.id ?? (projects.length === 1 ? projects[0]!.id : ''));
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => select.current?.focus(), []);
  const [asDraft, setAsDraft] = useState(false);
  const [errors, setErrors] = useState<{ projectId?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);
  const id = (name: string) => `fix-${gap.id}-${name}`;

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!projectId) {
      setErrors({ projectId: 'Choose the project whose repository holds these docs.' });
      select.current?.focus();
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const job = await analytics.fixGap(domain, gap.id, period, { projectId, asDraft });
      route(rooted(`/console/jobs/${encodeURIComponent(job.projectId)}/${encodeURIComponent(job.jobId)}`));
    } catch (err) {
      const field = err instanceof ApiError ? err.fieldMessage('projectId') : undefined;
      setErrors(field ? { projectId: field } : { form: messageOf(err) });
      setBusy(false);
    }
  };

  return (
    <form class="fix" onSubmit={(e) => void submit(e)} aria-label={`Fix the gap ${gap.topic.join(', ')}`}>
      <p class="hint">The agent gets the gap's questions, its nearest pages and the suggestion above, and opens a pull request.</p>
      <div class="field">
        <label for={id('project')}>Project</label>
        <select
          ref={select}
          id={id('project')}
          value={projectId}
          onChange={(e) => setProjectId(e.currentTarget.value)}
          aria-invalid={errors.projectId ? 'true' : undefined}
          aria-describedby={errors.projectId ? id('project-error') : undefined}
        >
          {projectId ? null : <option value="">Choose a project…</option>}
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.id}
            </option>
          ))}
        </select>
        {errors.projectId ? (
          <p id={id('project-error')} class="field-error" role="alert">
            {errors.projectId}
          </p>
        ) : null}
      </div>
      <label class="check">
        <input type="checkbox" checked={asDraft} onChange={(e) => setAsDraft(e.currentTarget.checked)} /> Open the pull request as a draft
      </label>
      {errors.form ? (
        <p role="alert" class="error">
          {errors.form}
        </p>
      ) : null}
      <div class="actions">
        <button type="submit" disabled={busy || !projectId}>
          {busy ? 'Starting…' : 'Start the job'}
        </button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
