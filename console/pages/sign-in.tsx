import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';
import { signIn, type Session } from '../api/session.js';
import { messageOf } from '../components/async.js';

const KEY_MESSAGES: Record<string, string> = {
  invalid_key: 'This key is not valid. Check it and try again.',
  admin_key_required: 'This is an assistant key. Sign in with an admin key.',
};

/** The admin key field; the key goes to the server once and is kept nowhere in the browser. */
export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: (s: Session) => void }) {
  const [keyError, setKeyError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    document.title = 'Sign in · Quire console';
    input.current?.focus();
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    const field = input.current;
    if (!field) return;
    const key = field.value.trim();
    setKeyError(null);
    setFormError(null);
    if (!key) {
      setKeyError('Enter your admin key.');
      field.focus();
      return;
    }
    setBusy(true);
    try {
      const session = await signIn(key);
      field.value = '';
      onSignedIn(session);
    } catch (err) {
      if (err instanceof ApiError && (err.status === 400 || err.status === 401 || err.status === 403)) {
        setKeyError(err.fieldMessage('key') ?? KEY_MESSAGES[err.code] ?? err.message);
        field.focus();
      } else {
        setFormError(messageOf(err));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to the Quire console</h1>
      {notice ? (
        <p role="status" class="notice">
          {notice}
        </p>
      ) : null}
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div class="field">
          <label for="admin-key">Admin key</label>
          <input
            ref={input}
            id="admin-key"
            name="key"
            type="password"
            autoComplete="off"
            spellcheck={false}
            aria-invalid={keyError ? 'true' : undefined}
            aria-describedby={keyError ? 'admin-key-error admin-key-hint' : 'admin-key-hint'}
          />
          <p id="admin-key-hint" class="hint">
            Your organisation's admin key (quire_…). It is exchanged for a session and not kept in this browser.
          </p>
          {keyError ? (
            <p id="admin-key-error" class="field-error" role="alert">
              {keyError}
            </p>
          ) : null}
        </div>
        {formError ? (
          <p role="alert" class="error">
            {formError}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
