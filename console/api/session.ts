import { ApiError, request, setCsrfToken } from './client.js';

/** What `/console/session` answers: the organisation signed in, and the CSRF token for this session. */
export interface Session {
  organisation: { id: string; name: string };
  csrfToken: string;
  expiresAt: string;
}

/** The session of this browser, or null when signed out; keeps the CSRF token in memory. */
export async function currentSession(): Promise<Session | null> {
  try {
    const session = await request<Session>('/console/session', { quiet401: true });
    setCsrfToken(session.csrfToken);
    return session;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    throw err;
  }
}

/** Exchanges an admin key for a session cookie; the key is sent once and kept nowhere. */
export async function signIn(key: string): Promise<Session> {
  const session = await request<Session>('/console/session', { method: 'POST', body: { key }, quiet401: true });
  setCsrfToken(session.csrfToken);
  return session;
}

/** Ends the session on the server. */
export async function signOut(): Promise<void> {
  try {
    await request<void>('/console/session', { method: 'DELETE', quiet401: true });
  } finally {
    setCsrfToken(null);
  }
}
