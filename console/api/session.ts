import { ApiError, request, setCsrfToken, setPublicUrl } from './client.js';
import type { ResponseOf } from './responses.js';

/**
 * What `/console/session` answers: the organisation signed in, the CSRF token for this session, and
 * the deployment's public URL (null: the server has none set).
 */
export type Session = ResponseOf<'getConsoleSession'>;

/** The session the browser's cookie holds now, or null when it holds none; takes the public URL it names. */
async function readSession(): Promise<Session | null> {
  try {
    const session = await request<Session>('/console/session', { quiet401: true });
    setPublicUrl(session.publicUrl);
    return session;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** The session of this browser, or null when signed out; keeps the CSRF token in memory. */
export async function currentSession(): Promise<Session | null> {
  const session = await readSession();
  if (session) setCsrfToken(session.csrfToken);
  return session;
}

/**
 * The cookie is shared by every tab: another one that signed in since holds a new session. Reads it
 * and answers whether it is still `orgId`'s (whose token this tab then takes), another
 * organisation's, or none.
 */
export async function sessionAgain(orgId: string): Promise<'same' | 'other' | 'none'> {
  const session = await readSession();
  if (!session) {
    setCsrfToken(null);
    return 'none';
  }
  if (session.organisation.id !== orgId) return 'other';
  setCsrfToken(session.csrfToken);
  return 'same';
}

/** Exchanges an admin key for a session cookie; the key is sent once and kept nowhere. */
export async function signIn(key: string): Promise<Session> {
  const session = await request<Session>('/console/session', { method: 'POST', body: { key }, quiet401: true });
  setCsrfToken(session.csrfToken);
  setPublicUrl(session.publicUrl);
  return session;
}

/**
 * Ends the session on the server; one already gone (401) is as good. Any other refusal (403, 503)
 * throws and leaves the session as it was, token included: the person is still signed in.
 */
export async function signOut(): Promise<void> {
  try {
    await request<void>('/console/session', { method: 'DELETE', quiet401: true });
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) throw err;
  }
  setCsrfToken(null);
}
