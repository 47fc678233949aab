/** HTTP credentials for one git command: a token is `x-access-token` (GitHub) or `oauth2` (GitLab) with the token as password. */
export interface GitCredentials {
  username: string;
  password: string;
}

/**
 * Splits `https://user:secret@host/repo.git` into the URL without its
 * credentials and the credentials, so the secret can travel per command
 * (environment) instead of on argv or in `.git/config`.
 */
export function withoutCredentials(source: string): { url: string; credentials?: GitCredentials } {
  let parsed: URL;
  try {
    parsed = new URL(source);
  } catch {
    return { url: source };
  }
  if (!/^https?:$/.test(parsed.protocol) || (!parsed.username && !parsed.password)) return { url: source };
  const credentials = { username: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), credentials };
}

/** The `Authorization` header git sends for the credentials. */
export function basicHeader(credentials: GitCredentials): string {
  return `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}`;
}

/** Removes the secret (raw, URL-encoded and in its Basic form) from text that may reach an error or a log. */
export function scrubCredentials(text: string, credentials: GitCredentials | undefined): string {
  if (!credentials?.password) return text;
  const forms = [credentials.password, encodeURIComponent(credentials.password), basicHeader(credentials).slice('Basic '.length)];
  let out = text;
  for (const form of forms) out = out.split(form).join('***');
  return out;
}
