import { useState } from 'preact/hooks';
import { messageOf } from './async.js';

/** The button under a list that reads its next page: busy while it reads, and saying why when it could not. */
export function LoadMore({ label, load }: { label: string; load: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const click = async () => {
    setBusy(true);
    setError(null);
    try {
      await load();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="load-more">
      <button type="button" class="secondary" disabled={busy} onClick={() => void click()}>
        {busy ? 'Loading…' : label}
      </button>
      {error ? (
        <p role="alert" class="error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
