import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../../api/client.js';
import { messageOf } from '../../components/async.js';

/** A form's submission: busy while it runs, and the server's answer when it refused. */
export interface Submission {
  busy: boolean;
  /** The message the server gave about `field` (its 400 names the field), shown beside it. */
  fieldError(field: string): string | undefined;
  /** What went wrong that no field of the form explains. */
  formError: string | null;
  run(action: () => Promise<void>): Promise<void>;
}

/**
 * Runs a form's action and keeps what the server said, by field. `fields` are
 * the fields the form shows: a refusal about any other field is the form's.
 */
export function useSubmission(fields: string[]): Submission {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const apiError = error instanceof ApiError ? error : null;
  const fieldError = (field: string) => apiError?.fieldMessage(field);
  const shown = apiError ? fields.some((f) => apiError.fieldMessage(f)) : false;
  return {
    busy,
    fieldError,
    formError: error && !shown ? messageOf(error) : null,
    run: async (action) => {
      setBusy(true);
      setError(null);
      try {
        await action();
      } catch (err) {
        setError(err);
      } finally {
        setBusy(false);
      }
    },
  };
}

/** A labelled control with its hint and, beside it, the server's message about it. */
export function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string | undefined; children: (describedBy: string | undefined, invalid: boolean) => ComponentChildren }) {
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {children(described, Boolean(error))}
      {hint ? (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} class="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A text input inside a Field, named like the API's field so its errors land beside it. */
export function TextField(props: { id: string; name: string; label: string; hint?: string; value?: string; placeholder?: string; submission: Submission; multiline?: boolean }) {
  const { id, name, label, hint, value, placeholder, submission, multiline } = props;
  return (
    <Field id={id} label={label} hint={hint} error={submission.fieldError(name)}>
      {(describedBy, invalid) =>
        multiline ? (
          <textarea id={id} name={name} rows={3} defaultValue={value} placeholder={placeholder} aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined} />
        ) : (
          <input id={id} name={name} type="text" defaultValue={value} placeholder={placeholder} aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined} />
        )
      }
    </Field>
  );
}

export function FormError({ submission }: { submission: Submission }) {
  return submission.formError ? (
    <p role="alert" class="error">
      {submission.formError}
    </p>
  ) : null;
}

/**
 * A heading that takes the focus when it appears (give it tabIndex -1): a one-time secret shown in
 * place of the form that made it is where a keyboard or screen reader user must be, not <body>.
 */
export function useFocusOnAppear<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}

/** The form's named text values: blank ones left out, so the API applies its defaults (or keeps the value, on PATCH). */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [name, value] of new FormData(form).entries()) {
    if (typeof value === 'string' && value.trim() !== '') values[name] = value.trim();
  }
  return values;
}

/** One entry a line (origins, models): the list the API takes. */
export { lines } from '../../data/form-text.js';

/** Copies text to the clipboard and says so, for a snippet or a secret. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  return (
    <button
      type="button"
      class="secondary"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setCopied('yes'),
          () => setCopied('failed'),
        )
      }
    >
      {label}
      <span role="status" class="copy-status">
        {copied === 'yes' ? ' — copied' : copied === 'failed' ? ' — select and copy it instead' : ''}
      </span>
    </button>
  );
}

/**
 * The button of an action that cannot be undone (revoke, delete, remove), in two steps: the first
 * press asks, naming what goes, and takes the focus to that question; "Keep it" steps back.
 */
export function ConfirmButton({ label, name, confirm, onConfirm }: { label: string; name: string; confirm: string; onConfirm: () => void }) {
  const [confirming, setConfirming] = useState(false);
  if (confirming) return <Confirm confirm={confirm} onConfirm={onConfirm} onKeep={() => setConfirming(false)} />;
  return (
    <button type="button" class="secondary" onClick={() => setConfirming(true)} aria-label={name}>
      {label}
    </button>
  );
}

function Confirm({ confirm, onConfirm, onKeep }: { confirm: string; onConfirm: () => void; onKeep: () => void }) {
  const button = useFocusOnAppear<HTMLButtonElement>();
  return (
    <span class="actions">
      <button ref={button} type="button" class="danger" onClick={onConfirm}>
        {confirm}
      </button>
      <button type="button" class="secondary" onClick={onKeep}>
        Keep it
      </button>
    </span>
  );
}
