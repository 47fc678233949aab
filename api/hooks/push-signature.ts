import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * GitHub's `X-Hub-Signature-256` (also sent by Gitea, Forgejo and Bitbucket): `sha256=` and the hex
 * HMAC-SHA256 of the body as sent, keyed with the secret; compared in constant time.
 */
export function hubSignatureMatches(secret: string, rawBody: string, header: string): boolean {
  const hex = /^sha256=([0-9a-fA-F]{64})$/.exec(header.trim())?.[1];
  if (hex === undefined) return false;
  const expected = createHmac('sha256', secret).update(rawBody, 'utf8').digest();
  return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
}

/**
 * A secret sent as it is (GitLab's `X-Gitlab-Token`, a bearer token): both sides are hashed first,
 * so the comparison takes the same time whatever either's length or content.
 */
export function tokenMatches(secret: string, given: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(secret), digest(given));
}
