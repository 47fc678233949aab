import type { IncomingHttpHeaders } from 'node:http';
import { hubSignatureMatches, tokenMatches } from './push-signature.js';

/** Which forge's way a delivery is signed: GitHub's HMAC, GitLab's token, or a plain bearer secret. */
export type PushForm = 'github' | 'gitlab' | 'bearer';

/** What a delivery's headers say: its form, its event and the proof it carries. */
export interface PushDelivery {
  form: PushForm;
  /** GitHub's `X-GitHub-Event` (`push`, `ping`…), GitLab's `X-Gitlab-Event` (`Push Hook`…); `push` for a bearer. */
  event: string;
  /** True when the proof holds for `secret` over `rawBody`. */
  signedWith(secret: string, rawBody: string): boolean;
}

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * Reads a delivery's form from its headers; undefined when it carries none of the three proofs.
 * A GitHub-style event without its signature (or a GitLab one without its token) proves nothing.
 */
export function pushDeliveryOf(headers: IncomingHttpHeaders): PushDelivery | undefined {
  const hubSignature = header(headers, 'x-hub-signature-256');
  const githubEvent = header(headers, 'x-github-event');
  if (hubSignature !== undefined || githubEvent !== undefined) {
    return { form: 'github', event: githubEvent ?? 'push', signedWith: (secret, raw) => hubSignature !== undefined && hubSignatureMatches(secret, raw, hubSignature) };
  }
  const gitlabToken = header(headers, 'x-gitlab-token');
  const gitlabEvent = header(headers, 'x-gitlab-event');
  if (gitlabToken !== undefined || gitlabEvent !== undefined) {
    return { form: 'gitlab', event: gitlabEvent ?? 'Push Hook', signedWith: (secret) => gitlabToken !== undefined && tokenMatches(secret, gitlabToken) };
  }
  const bearer = /^Bearer (\S+)$/i.exec(header(headers, 'authorization') ?? '')?.[1];
  if (bearer !== undefined) return { form: 'bearer', event: 'push', signedWith: (secret) => tokenMatches(secret, bearer) };
  return undefined;
}
