/**
 * Text typed into a form and not sent yet, kept in this tab's session storage so it outlives
 * the form: a session that ends while someone writes shows the sign-in page, and the form comes
 * back with its text once they sign in again. Sent text is cleared; signing out clears all.
 * Storage that refuses (a private window's quota, storage turned off) keeps nothing, silently.
 */
const PREFIX = 'quire-console-draft:';
/** Where a draft's sending key is kept: beside its text, under the same prefix, so signing out clears it too. */
const SENDING_KEY = ':sending-key';

function storage(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}

function read(item: string): string {
  try {
    return storage()?.getItem(PREFIX + item) ?? '';
  } catch {
    return '';
  }
}

function write(item: string, value: string): void {
  try {
    if (value) storage()?.setItem(PREFIX + item, value);
    else storage()?.removeItem(PREFIX + item);
  } catch {
    // Nowhere to keep it: the form still holds the text while it is shown.
  }
}

export function readDraft(name: string): string {
  return read(name);
}

/** Keeps the text as typed; text that changed is another message, so its sending key goes. */
export function saveDraft(name: string, text: string): void {
  write(name, text);
  write(name + SENDING_KEY, '');
}

export function clearDraft(name: string): void {
  saveDraft(name, '');
}

/**
 * The `Idempotency-Key` that sends the draft as it stands: made on its first send and kept beside
 * the text, so a retry of the same text (after a 503, or a reload) names the same message and the
 * server runs it once. Editing or sending the draft drops it; the next send makes a new one.
 */
export function sendingKey(name: string): string {
  const kept = read(name + SENDING_KEY);
  if (kept) return kept;
  // Not randomUUID: a console served over plain HTTP (not a secure context) does not have it.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const key = `console-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  write(name + SENDING_KEY, key);
  return key;
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
