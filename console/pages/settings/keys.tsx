import { useState } from 'preact/hooks';
import { keys, type Key, type KeyCreated } from '../../api/settings.js';
import { messageOf, Show, useLoad } from '../../components/async.js';
import { formatTime } from '../conversations.js';
import { ConfirmButton, CopyButton, Field, FormError, useFocusOnAppear, useSubmission } from './form.js';

/** Keys: a new key's secret shown once, the list (masked), and revoking. */
export function KeysSection() {
  const [loaded, reload] = useLoad(() => keys.list(), []);
  const [created, setCreated] = useState<(KeyCreated) | null>(null);
  return (
    <>
      <NewKey
        onCreated={(key) => {
          setCreated(key);
          reload();
        }}
      />
      {created ? <NewSecret created={created} onDone={() => setCreated(null)} /> : null}
      <Show loaded={loaded}>
        {(list) => (
          <table class="keys stacked">
            <caption>Keys of the organisation</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Kind</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Expires</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {list.map((key) => (
                <KeyRow key={key.id} item={key} onRevoked={reload} />
              ))}
            </tbody>
          </table>
        )}
      </Show>
    </>
  );
}

function NewSecret({ created, onDone }: { created: KeyCreated; onDone: () => void }) {
  const heading = useFocusOnAppear<HTMLHeadingElement>();
  return (
    <section class="card secret" aria-labelledby="new-secret-heading" role="region">
      <h2 id="new-secret-heading" ref={heading} tabIndex={-1}>
        New {created.kind} key
      </h2>
      <p>Copy it now: it is shown this once and cannot be read again.</p>
      <pre>
        <code id="new-secret">{created.secret}</code>
      </pre>
      <div class="actions">
        <CopyButton text={created.secret} label="Copy the key" />
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

function KeyRow({ item, onRevoked }: { item: Key; onRevoked: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const revoke = async () => {
    setError(null);
    try {
      await keys.revoke(item.id);
      onRevoked();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const expired = item.expiresAt !== null && Date.parse(item.expiresAt) <= Date.now();
  return (
    <tr data-key-id={item.id}>
      <th scope="row">
        <code>{item.prefix}</code>
      </th>
      <td data-label="Kind">{item.kind}</td>
      <td data-label="Created">{formatTime(item.createdAt)}</td>
      <td data-label="Last used">{item.lastUsedAt ? formatTime(item.lastUsedAt) : 'Never'}</td>
      <td data-label="Expires">{item.expiresAt ? formatTime(item.expiresAt) : 'Never'}</td>
      <td data-label="State">
        {item.revokedAt ? (
          <span class="badge failed">Revoked {formatTime(item.revokedAt)}</span>
        ) : expired ? (
          <span class="badge failed">Expired</span>
        ) : (
          <ConfirmButton label="Revoke" name={`Revoke ${item.prefix}`} confirm={`Revoke ${item.prefix} now`} onConfirm={() => void revoke()} />
        )}
        {error ? (
          <p role="alert" class="error">
            {error}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * What the expiry field says of the moment typed: the browser's time zone it is read in, and, once
 * a moment is typed, that moment in UTC as the list of keys will show it (a team across zones, or a
 * browser set to another zone than its owner's, would otherwise learn the difference from the list).
 */
export function expiryHint(typed: string, zone = Intl.DateTimeFormat().resolvedOptions().timeZone): string {
  const read = `Optional: after this moment, in your browser's time zone (${zone}), the key no longer works.`;
  const at = Date.parse(typed);
  return typed && !Number.isNaN(at) ? `${read} That is ${formatTime(new Date(at).toISOString())}, as the list shows it.` : read;
}

function NewKey({ onCreated }: { onCreated: (key: KeyCreated) => void }) {
  const submission = useSubmission(['kind', 'expiresAt']);
  const [expiry, setExpiry] = useState('');
  const create = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const data = new FormData(form);
    // One of the select's two options; anything else the API refuses beside the field.
    const kind = String(data.get('kind') ?? '') as Key['kind'];
    const expires = String(data.get('expiresAt') ?? '').trim();
    // The browser's local date and time, as the instant the API takes; what it cannot read is left to the API to name.
    const instant = expires && !Number.isNaN(Date.parse(expires)) ? new Date(expires).toISOString() : expires;
    void submission.run(async () => {
      onCreated(await keys.create({ kind, ...(instant ? { expiresAt: instant } : {}) }));
      form.reset();
      setExpiry('');
    });
  };
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="new-key-heading">
      <h2 id="new-key-heading">Create a key</h2>
      <Field id="new-key-kind" label="Kind" error={submission.fieldError('kind')} hint="Admin keys manage the organisation; assistant keys are for the widget and other browser clients.">
        {(describedBy, invalid) => (
          <select id="new-key-kind" name="kind" aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined}>
            <option value="assistant">Assistant</option>
            <option value="admin">Admin</option>
          </select>
        )}
      </Field>
      <Field id="new-key-expires" label="Expires" error={submission.fieldError('expiresAt')} hint={expiryHint(expiry)}>
        {(describedBy, invalid) => (
          <input
            id="new-key-expires"
            name="expiresAt"
            type="datetime-local"
            onInput={(e) => setExpiry(e.currentTarget.value)}
            aria-describedby={describedBy}
            aria-invalid={invalid ? 'true' : undefined}
          />
        )}
      </Field>
      <FormError submission={submission} />
      <button type="submit" disabled={submission.busy}>
        Create the key
      </button>
    </form>
  );
}
