import { useEffect, useState } from 'preact/hooks';
import { automations, projects, webhooks, type Automation } from '../../api/settings.js';
import { messageOf, Show, useLoad } from '../../components/async.js';
import { formatTime } from '../conversations.js';
import { ConfirmButton, CopyButton, FormError, formValues, TextField, useFocusOnAppear, useSubmission } from './form.js';

/** The project a section is about; the first one to begin with. */
function ProjectChoice({ id, value, onChange }: { id: string; value: string; onChange: (projectId: string) => void }) {
  const [loaded] = useLoad(() => projects.list(), []);
  const first = loaded.state === 'ready' ? loaded.value[0]?.id : undefined;
  useEffect(() => {
    if (!value && first) onChange(first);
  }, [value, first]);
  return (
    <Show loaded={loaded}>
      {(list) =>
        list.length === 0 ? (
          <p class="empty">No project yet: add one under Projects.</p>
        ) : (
          <div class="field">
            <label for={id}>Project</label>
            <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
              {list.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.id}
                </option>
              ))}
            </select>
          </div>
        )
      }
    </Show>
  );
}

/** An automation's prompt as its name in a button: its first whole words. */
const shortened = (prompt: string) => (prompt.length > 40 ? `${prompt.slice(0, 40).replace(/\s+\S*$/, '')}…` : prompt);

/** Automations: recurring agent jobs of a project, paused, resumed, added and removed. */
export function AutomationsSection() {
  const [projectId, setProjectId] = useState('');
  return (
    <>
      <ProjectChoice id="automations-project" value={projectId} onChange={setProjectId} />
      {projectId ? <ProjectAutomations key={projectId} projectId={projectId} /> : null}
    </>
  );
}

function ProjectAutomations({ projectId }: { projectId: string }) {
  const [loaded, reload] = useLoad(() => automations.list(projectId), [projectId]);
  return (
    <>
      <Show loaded={loaded}>
        {(list) =>
          list.length === 0 ? (
            <p class="empty">No automation in {projectId}.</p>
          ) : (
            <ul class="list">
              {list.map((a) => (
                <AutomationCard key={a.id} projectId={projectId} automation={a} onChanged={reload} />
              ))}
            </ul>
          )
        }
      </Show>
      <NewAutomation projectId={projectId} onCreated={reload} />
    </>
  );
}

function AutomationCard({ projectId, automation, onChanged }: { projectId: string; automation: Automation; onChanged: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const act = (action: () => Promise<unknown>) => async () => {
    setError(null);
    try {
      await action();
      onChanged();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <li class="card">
      <p class="question">{automation.prompt}</p>
      <p class="meta">
        <span>{automation.cron ? `cron ${automation.cron} (${automation.timezone})` : `every ${automation.interval}`}</span>
        <span class={`badge ${automation.paused ? 'failed' : 'active'}`}>{automation.paused ? 'paused' : 'active'}</span>
        {automation.nextRunTimes[0] ? <span>Next {formatTime(automation.nextRunTimes[0])}</span> : null}
        {automation.lastRun ? <span>Last {formatTime(automation.lastRun.at)}</span> : null}
      </p>
      {automation.note ? <p class="hint">{automation.note}</p> : null}
      <div class="actions">
        {automation.paused ? (
          <button type="button" class="secondary" onClick={() => void act(() => automations.resume(projectId, automation.id))()}>
            Resume
          </button>
        ) : (
          <button type="button" class="secondary" onClick={() => void act(() => automations.pause(projectId, automation.id))()}>
            Pause
          </button>
        )}
        <ConfirmButton
          label="Delete"
          name={`Delete the automation ${shortened(automation.prompt)}`}
          confirm={`Delete the automation “${shortened(automation.prompt)}” now`}
          onConfirm={() => void act(() => automations.remove(projectId, automation.id))()}
        />
      </div>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
    </li>
  );
}

function NewAutomation({ projectId, onCreated }: { projectId: string; onCreated: () => void }) {
  const submission = useSubmission(['prompt', 'cron', 'interval', 'timezone']);
  const create = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    void submission.run(async () => {
      await automations.create(projectId, formValues(form));
      form.reset();
      onCreated();
    });
  };
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="new-automation-heading">
      <h2 id="new-automation-heading">Add an automation to {projectId}</h2>
      <TextField id="new-automation-prompt" name="prompt" label="Prompt" multiline submission={submission} hint="What the agent does each time." />
      <TextField id="new-automation-cron" name="cron" label="Cron" submission={submission} placeholder="0 9 * * MON" hint="Five fields, or @daily…; or give an interval instead." />
      <TextField id="new-automation-interval" name="interval" label="Interval" submission={submission} placeholder="1d" hint="90s, 15m, 2h or 1d." />
      <TextField id="new-automation-timezone" name="timezone" label="Time zone" submission={submission} placeholder="UTC" hint="The zone the cron expression is read in." />
      <FormError submission={submission} />
      <button type="submit" disabled={submission.busy}>
        Add the automation
      </button>
    </form>
  );
}

/** Webhooks: where a project's job events go, and how their deliveries went. */
export function WebhooksSection() {
  const [projectId, setProjectId] = useState('');
  return (
    <>
      <ProjectChoice id="webhooks-project" value={projectId} onChange={setProjectId} />
      {projectId ? <ProjectWebhooks key={projectId} projectId={projectId} /> : null}
    </>
  );
}

function ProjectWebhooks({ projectId }: { projectId: string }) {
  const [loaded, reload] = useLoad(() => webhooks.list(projectId), [projectId]);
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (webhookId: string) => {
    setError(null);
    try {
      await webhooks.remove(projectId, webhookId);
      reload();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <>
      <Show loaded={loaded}>
        {(list) =>
          list.length === 0 ? (
            <p class="empty">No webhook in {projectId}.</p>
          ) : (
            <ul class="list">
              {list.map((w) => (
                <li key={w.id} class="card">
                  <p class="question">{w.url}</p>
                  <p class="meta">
                    <span>{w.events.length > 0 ? w.events.join(', ') : 'all events'}</span>
                    <span>signed with {w.secret === 'stored' ? 'a generated secret' : `the worker's ${w.secret.slice('env:'.length)}`}</span>
                  </p>
                  <ConfirmButton label="Remove" name={`Remove the webhook to ${w.url}`} confirm={`Remove the webhook to ${w.url} now`} onConfirm={() => void remove(w.id)} />
                </li>
              ))}
            </ul>
          )
        }
      </Show>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      {secret ? <WebhookSecret secret={secret} onDone={() => setSecret(null)} /> : null}
      <NewWebhook
        projectId={projectId}
        onCreated={(signingSecret) => {
          setSecret(signingSecret);
          reload();
        }}
      />
      <h2>Deliveries</h2>
      <Deliveries projectId={projectId} />
    </>
  );
}

/** A new webhook's generated signing secret, shown this once; it takes the focus when it appears. */
function WebhookSecret({ secret, onDone }: { secret: string; onDone: () => void }) {
  const heading = useFocusOnAppear<HTMLHeadingElement>();
  return (
    <section class="card secret" aria-labelledby="webhook-secret-heading">
      <h2 id="webhook-secret-heading" ref={heading} tabIndex={-1}>
        Signing secret
      </h2>
      <p>Verify X-Quire-Signature with it. It is shown this once.</p>
      <pre>
        <code id="webhook-secret">{secret}</code>
      </pre>
      <div class="actions">
        <CopyButton text={secret} label="Copy the secret" />
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

function NewWebhook({ projectId, onCreated }: { projectId: string; onCreated: (secret: string | null) => void }) {
  const submission = useSubmission(['url', 'events', 'secretEnv']);
  const create = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const { events, ...values } = formValues(form);
    void submission.run(async () => {
      const created = await webhooks.create(projectId, { ...values, ...(events ? { events: events.split(/[\s,]+/).filter(Boolean) } : {}) });
      form.reset();
      onCreated(created.signingSecret);
    });
  };
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="new-webhook-heading">
      <h2 id="new-webhook-heading">Add a webhook to {projectId}</h2>
      <TextField id="new-webhook-url" name="url" label="Receiver URL" submission={submission} placeholder="https://hooks.example.com/quire" />
      <TextField id="new-webhook-events" name="events" label="Events" submission={submission} placeholder="job.completed, pull_request.opened" hint="Optional: the event types to send, separated by commas; empty: all." />
      <TextField id="new-webhook-secret-env" name="secretEnv" label="Secret variable" submission={submission} hint="Optional: sign with the secret in this variable of the worker instead of a generated one." />
      <FormError submission={submission} />
      <button type="submit" disabled={submission.busy}>
        Add the webhook
      </button>
    </form>
  );
}

function Deliveries({ projectId }: { projectId: string }) {
  const [loaded] = useLoad(() => webhooks.deliveries(projectId), [projectId]);
  return (
    <Show loaded={loaded}>
      {(list) =>
        list.length === 0 ? (
          <p class="empty">No delivery from {projectId} yet.</p>
        ) : (
          <table class="deliveries stacked">
            <caption>Latest webhook deliveries of {projectId}</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Receiver</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
              </tr>
            </thead>
            <tbody>
              {list.map((d) => (
                <tr key={d.deliveryId}>
                  <td data-label="When">{formatTime(d.updatedAt)}</td>
                  <td data-label="Event">
                    <code>{d.event}</code>
                  </td>
                  <td data-label="Receiver">{d.url}</td>
                  <td data-label="Status">
                    <span class={`badge ${d.status === 'delivered' ? 'completed' : d.status === 'pending' ? 'active' : 'failed'}`}>{d.status}</span>
                    {d.statusCode ? ` ${d.statusCode}` : ''}
                    {d.lastError ? <span class="hint"> {d.lastError}</span> : null}
                  </td>
                  <td data-label="Attempts">{d.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      }
    </Show>
  );
}
