import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client.js';

export type Loaded<T> = { state: 'loading' } | { state: 'ready'; value: T } | { state: 'failed'; error: string };

/** Runs `load` whenever `deps` change and answers its state; a newer run wins over an older one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [Loaded<T>, () => void] {
  const [result, setResult] = useState<Loaded<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    setResult({ state: 'loading' });
    load().then(
      (value) => current && setResult({ state: 'ready', value }),
      (err: unknown) => current && setResult({ state: 'failed', error: messageOf(err) }),
    );
    return () => {
      current = false;
    };
  }, [...deps, round]);
  return [result, () => setRound((n) => n + 1)];
}

export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return err instanceof Error ? err.message : String(err);
}

/** Shows a load's outcome: a status while loading, an alert when it failed, else the children. */
export function Show<T>({ loaded, children }: { loaded: Loaded<T>; children: (value: T) => ComponentChildren }) {
  if (loaded.state === 'loading') return <p role="status">Loading…</p>;
  if (loaded.state === 'failed') return <p role="alert" class="error">{loaded.error}</p>;
  return <>{children(loaded.value)}</>;
}
