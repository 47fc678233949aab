/**
 * Text typed into a form and not sent yet, kept in this tab's session storage so it outlives
 * the form: a session that ends while someone writes shows the sign-in page, and the form comes
 * back with its text once they sign in again. Sent text is cleared; signing out clears all.
 * Storage that refuses (a private window's quota, storage turned off) keeps nothing, silently.
 */
const PREFIX = 'quire-console-draft:';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

export function readDraft(name: string): string {
  try {
    return storage()?.getItem(PREFIX + name) ?? '';
  } catch {
    return '';
  }
}

export function saveDraft(name: string, text: string): void {
  try {
    if (text) storage()?.setItem(PREFIX + name, text);
    else storage()?.removeItem(PREFIX + name);
  } catch {
    // Nowhere to keep it: the form still holds the text while it is shown.
  }
}

export function clearDraft(name: string): void {
  saveDraft(name, '');
}

/** Every draft of this tab: on signing out, nothing typed stays behind. */
export function clearDrafts(): void {
  const store = storage();
  if (!store) return;
  try {
    for (const key of Object.keys(store)) if (key.startsWith(PREFIX)) store.removeItem(key);
  } catch {
    // As above.
  }
}
