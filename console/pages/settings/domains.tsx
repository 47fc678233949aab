import { useEffect, useState } from 'preact/hooks';
import { apiUrl } from '../../api/client.js';
import { domains, type Domain, type DomainLanguage, type IndexStatus } from '../../api/settings.js';
import { messageOf, Show, useLoad } from '../../components/async.js';
import { indexFailure } from '../../data/indexing.js';
import { formatTime } from '../conversations.js';
import { CopyButton, Field, FormError, formValues, lines, TextField, useSubmission, type Submission } from './form.js';
import { PushHook } from './push-hook.js';

/** How often the status of a running re-index is read again. */
const INDEX_POLL_MS = 1500;

/** Domains: their allowed origins and settings, their indexing, their push hook, and the widget tag for each. */
export function DomainsSection() {
  const [loaded, reload] = useLoad(() => domains.list(), []);
  const [languages] = useLoad(() => domains.languages(), []);
  // Until the list is read (or if it cannot be), each form offers only the language its domain has.
  const offered = languages.state === 'ready' ? languages.value : [];
  return (
    <>
      <Show loaded={loaded}>
        {(list) =>
          list.length === 0 ? (
            <p class="empty">No domain yet. Add one below.</p>
          ) : (
            <ul class="list">
              {list.map((d) => (
                <DomainCard key={d.id} domain={d} languages={offered} />
              ))}
            </ul>
          )
        }
      </Show>
      <NewDomain onCreated={reload} />
    </>
  );
}

/**
 * The poll interval as typed, as the API takes it: empty (or "off") stops polling; a number is sent
 * as one, in range or not; anything else is sent as typed, so the API's refusal shows beside the field.
 */
function pollMinutesOf(text: string | undefined): number | string | null {
  if (!text || text.toLowerCase() === 'off') return null;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language tag as a docs team reads it: `German (de)`, `Portuguese (Brazil) (pt-BR)`. */
function languageLabel(tag: string): string {
  try {
    return `${languageNames.of(tag) ?? tag} (${tag})`;
  } catch {
    return tag;
  }
}

/**
 * The language a domain's pages and questions are stemmed in: the API's languages, and the domain's
 * own tag when it names a region (`pt-BR`) the list does not. Empty is the API's default, English.
 */
function LanguageField({ id, value, languages, submission }: { id: string; value: string; languages: readonly DomainLanguage[]; submission: Submission }) {
  const tags = value && !(languages as readonly string[]).includes(value) ? [value, ...languages] : languages;
  return (
    <Field id={id} label="Language" error={submission.fieldError('language')} hint="The language of the docs, whose stemmer cuts the words of pages and questions. A change re-indexes the domain.">
      {(describedBy, invalid) => (
        <select id={id} name="language" aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined}>
          <option value="" selected={!value}>
            English (not set)
          </option>
          {tags.map((tag) => (
            <option key={tag} value={tag} selected={tag === value}>
              {languageLabel(tag)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function DomainCard({ domain: loaded, languages }: { domain: Domain; languages: readonly DomainLanguage[] }) {
  const [domain, setDomain] = useState(loaded);
  const submission = useSubmission(['baseUrl', 'branch', 'docsPath', 'allowedOrigins', 'supportContact', 'pushSecretEnv', 'pollMinutes', 'language']);
  const [saved, setSaved] = useState(false);
  const prefix = `domain-${domain.id}`;
  const save = (e: Event) => {
    e.preventDefault();
    const values = formValues(e.currentTarget as HTMLFormElement);
    const origins = lines(values.allowedOrigins);
    const pollMinutes = pollMinutesOf(values.pollMinutes);
    const language = values.language ?? null;
    setSaved(false);
    void submission.run(async () => {
      const updated = await domains.update(domain.id, {
        baseUrl: values.baseUrl ?? '',
        // Empty: the repository's default branch; the root of the repository.
        branch: values.branch ?? null,
        docsPath: values.docsPath ?? '',
        // An empty list is "any origin": the API says so with null.
        allowedOrigins: origins.length > 0 ? origins : null,
        supportContact: values.supportContact ?? null,
        // Empty: the domain takes no pushes.
        pushSecretEnv: values.pushSecretEnv ?? null,
        // Sent only when changed: a change sets the domain's schedule in Temporal, which other edits need not wait for.
        ...(pollMinutes !== (domain.pollMinutes ?? null) ? { pollMinutes } : {}),
        // Sent only when changed: a change re-indexes the domain.
        ...(language !== (domain.language ?? null) ? { language } : {}),
      });
      setDomain(updated);
      setSaved(true);
    });
  };
  return (
    <li class="card domain" aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{domain.id}</h2>
      <p class="meta">
        <span>
          Source <code>{domain.source}</code>
          {domain.branch ? ` (${domain.branch})` : ''}
        </span>
        <span>Updated {formatTime(domain.updatedAt)}</span>
      </p>
      <form class="domain-form" onSubmit={save} noValidate aria-label={`Settings of ${domain.id}`}>
        <TextField id={`${prefix}-base-url`} name="baseUrl" label="Docs site URL" value={domain.baseUrl} submission={submission} hint="Where the citations link to." />
        <TextField id={`${prefix}-branch`} name="branch" label="Branch" value={domain.branch ?? ''} submission={submission} hint="The branch of the docs. Empty: the repository's default branch. Re-index to read a new one." />
        <TextField id={`${prefix}-docs-path`} name="docsPath" label="Docs folder" value={domain.docsPath} submission={submission} hint="The folder of the docs in the repository. Empty: its root. Re-index to read a new one." />
        <LanguageField id={`${prefix}-language`} value={domain.language ?? ''} languages={languages} submission={submission} />
        <TextField
          id={`${prefix}-origins`}
          name="allowedOrigins"
          label="Allowed origins"
          multiline
          value={(domain.allowedOrigins ?? []).join('\n')}
          placeholder="https://docs.example.com"
          submission={submission}
          hint="One origin a line: only pages there may use the widget and the browser endpoints. Empty: any origin."
        />
        <TextField id={`${prefix}-support`} name="supportContact" label="Support contact" value={domain.supportContact ?? ''} submission={submission} hint="Offered when the docs have no answer (optional)." />
        <TextField
          id={`${prefix}-push-secret-env`}
          name="pushSecretEnv"
          label="Push secret variable"
          value={domain.pushSecretEnv ?? ''}
          placeholder="ACME_DOCS_PUSH_SECRET"
          submission={submission}
          hint="The name of the API's environment variable that holds the push hook's secret, never the secret itself. Empty: the domain takes no pushes."
        />
        <TextField
          id={`${prefix}-poll-minutes`}
          name="pollMinutes"
          label="Poll every (minutes)"
          value={domain.pollMinutes === undefined ? '' : String(domain.pollMinutes)}
          placeholder="off"
          submission={submission}
          hint="For a repository whose pushes cannot reach the hook: every this many minutes (5 to 1440), Quire checks the branch and re-indexes when it has a new commit. Empty: not polled."
        />
        <FormError submission={submission} />
        <div class="actions">
          <button type="submit" disabled={submission.busy}>
            {submission.busy ? 'Saving…' : 'Save'}
          </button>
          {saved ? <span role="status">Saved.</span> : null}
        </div>
      </form>
      <Indexing domain={domain} />
      <PushHook domain={domain} />
      <WidgetSnippet domainId={domain.id} />
    </li>
  );
}

/**
 * The latest indexing run: its state, its progress while running, what it indexed, and why one that
 * failed did in a sentence chosen by the failure's code (never the worker's message, which names the
 * server's paths); and a button to run it again.
 */
function Indexing({ domain }: { domain: Domain }) {
  const domainId = domain.id;
  const [status, setStatus] = useState<IndexStatus | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [round, setRound] = useState(0);

  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      domains.indexStatus(domainId).then(
        (s) => {
          if (!current) return;
          setStatus(s);
          if (s?.status === 'running') timer = setTimeout(read, INDEX_POLL_MS);
        },
        (err: unknown) => current && setError(messageOf(err)),
      );
    void read();
    return () => {
      current = false;
      if (timer) clearTimeout(timer);
    };
  }, [domainId, round]);

  const reindex = async () => {
    setError(null);
    try {
      setStatus(await domains.reindex(domainId));
      setRound((n) => n + 1);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  const headingId = `index-${domainId}-heading`;
  return (
    <section class="indexing" aria-labelledby={headingId}>
      <h3 id={headingId}>Indexing</h3>
      {status === undefined ? <p role="status">Loading…</p> : null}
      {status === null ? <p class="empty">Not indexed yet.</p> : null}
      {status ? (
        <dl class="facts" aria-live="polite">
          <dt>Status</dt>
          <dd>
            <span class={`badge ${status.status === 'running' ? 'active' : status.status}`} data-status={status.status}>
              {status.status}
            </span>
          </dd>
          <dt>Started</dt>
          <dd>{formatTime(status.startedAt)}</dd>
          {status.closedAt ? (
            <>
              <dt>Finished</dt>
              <dd>{formatTime(status.closedAt)}</dd>
            </>
          ) : null}
          {status.progress && status.status === 'running' ? (
            <>
              <dt>Progress</dt>
              <dd>
                <progress max={Math.max(status.progress.total, 1)} value={status.progress.done} aria-label={`Pages indexed of ${domainId}`} /> {status.progress.done} of {status.progress.total} pages ({status.progress.phase})
              </dd>
            </>
          ) : null}
          {status.pages !== undefined && status.pages !== null ? (
            <>
              <dt>Pages</dt>
              <dd>{status.pages}</dd>
            </>
          ) : null}
          {status.error || status.errorCode ? (
            <>
              <dt>Why</dt>
              <dd class="index-error" data-error-code={status.errorCode ?? undefined}>
                {indexFailure(status.errorCode, domain)}
              </dd>
            </>
          ) : null}
          {status.pollBackoff ? (
            <>
              <dt>Polling</dt>
              <dd class="poll-backoff">
                Commit <code class="commit">{status.pollBackoff.head.slice(0, 12)}</code> failed to index {status.pollBackoff.failures === 1 ? 'once' : `${status.pollBackoff.failures} times in a row`}: polls try it again
                from {formatTime(status.pollBackoff.retryAt)}, and a new commit at once.
              </dd>
            </>
          ) : null}
          <dt>Last indexed commit</dt>
          <dd>{status.commit ? <code class="commit">{status.commit.slice(0, 12)}</code> : '—'}</dd>
        </dl>
      ) : null}
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
      <button type="button" class="secondary" disabled={status?.status === 'running'} onClick={() => void reindex()}>
        {status?.status === 'running' ? 'Indexing…' : `Re-index ${domainId}`}
      </button>
    </section>
  );
}

/** The script tag a docs site adds to show the assistant, for this domain. */
function WidgetSnippet({ domainId }: { domainId: string }) {
  const tag = `<script src="${apiUrl('/widget.js')}" data-domain="${domainId}" data-key="quire_dsc_…" async></script>`;
  const headingId = `widget-${domainId}-heading`;
  return (
    <section class="snippet" aria-labelledby={headingId}>
      <h3 id={headingId}>Widget</h3>
      <p class="hint">Add this tag to the docs site's pages, with an assistant key (Keys) in place of quire_dsc_….</p>
      <pre>
        <code id={`widget-${domainId}-tag`}>{tag}</code>
      </pre>
      <CopyButton text={tag} label="Copy the tag" />
    </section>
  );
}

function NewDomain({ onCreated }: { onCreated: () => void }) {
  const submission = useSubmission(['id', 'source', 'branch', 'docsPath', 'baseUrl', 'allowedOrigins']);
  const create = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const { allowedOrigins, ...values } = formValues(form);
    void submission.run(async () => {
      await domains.create({ ...values, ...(allowedOrigins ? { allowedOrigins: lines(allowedOrigins) } : {}) });
      form.reset();
      onCreated();
    });
  };
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="new-domain-heading">
      <h2 id="new-domain-heading">Add a domain</h2>
      <TextField id="new-domain-id" name="id" label="Id" submission={submission} hint="Lower-case letters, digits and dashes." />
      <TextField id="new-domain-source" name="source" label="Source" submission={submission} hint="Git URL of the docs (a folder on the server only where the operator allows it)." />
      <TextField id="new-domain-branch" name="branch" label="Branch" submission={submission} hint="Optional: the default branch when empty." />
      <TextField id="new-domain-path" name="docsPath" label="Docs folder" submission={submission} hint="Optional: the folder of the docs in the repository." />
      <TextField id="new-domain-base-url" name="baseUrl" label="Docs site URL" submission={submission} />
      <TextField id="new-domain-origins" name="allowedOrigins" label="Allowed origins" multiline submission={submission} hint="One a line; empty: any origin." />
      <FormError submission={submission} />
      <button type="submit" disabled={submission.busy}>
        Add the domain
      </button>
    </form>
  );
}
