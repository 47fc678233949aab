import { useEffect, useState } from 'preact/hooks';
import { apiUrl } from '../../api/client.js';
import { domains, type Domain, type DomainLanguage, type IndexStatus } from '../../api/settings.js';
import { messageOf, Show, useLoad } from '../../components/async.js';
import { indexFailure } from '../../data/indexing.js';
import { formatTime } from '../conversations.js';
import { DomainForm } from './domain-form.js';
import { CopyButton } from './form.js';
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
      <DomainForm languages={offered} onSaved={reload} />
    </>
  );
}

function DomainCard({ domain: loaded, languages }: { domain: Domain; languages: readonly DomainLanguage[] }) {
  const [domain, setDomain] = useState(loaded);
  const prefix = `domain-${domain.id}`;
  return (
    <li class="card domain" aria-labelledby={`${prefix}-title`}>
      <h2 id={`${prefix}-title`}>{domain.id}</h2>
      <p class="meta">
        <span>Updated {formatTime(domain.updatedAt)}</span>
      </p>
      <DomainForm domain={domain} languages={languages} onSaved={setDomain} />
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
