/**
 * A repository or docs source as its users know it: a URL without userinfo (tokens), an scp-like
 * `git@host:path` without a password; undefined for a folder on the server or a `file://` URL,
 * whose path is the server's and never shown. Pure: the workflow sandbox imports it.
 */
export function publicSource(source: string): string | undefined {
  // Userinfo ends at the last @ before the path: a password may hold an @ of its own.
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/]*@)?(.*)$/i.exec(source);
  if (scheme) return scheme[1]?.toLowerCase() === 'file://' ? undefined : `${scheme[1]}${scheme[3]}`;
  // scp-like git@host:path keeps its user (never a secret), but user:password@ loses it.
  if (/^[^/\\]+:/.test(source) && !/^[a-z]:[\\/]/i.test(source)) return source.replace(/^[^@/:]+:[^@/]*@/, '');
  return undefined;
}
