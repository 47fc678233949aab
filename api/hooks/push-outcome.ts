import type { PushDelivery } from './push-delivery.js';
import type { PushBodyIn } from './schemas.js';

/** What a verified delivery asks of a domain: index it, nothing (and why), or answer a ping. */
export type PushOutcome = { kind: 'index'; branch: string } | { kind: 'ignored'; reason: string; branch?: string } | { kind: 'pong' };

/** The events that are pushes, by form; GitHub's `ping` is answered, any other event is ignored. */
const PUSH_EVENTS: Record<PushDelivery['form'], string> = { github: 'push', gitlab: 'Push Hook', bearer: 'push' };
const BRANCH_REF = 'refs/heads/';

/** The branch a ref names: `refs/heads/<branch>` or a bare name; undefined for other refs (tags, notes). */
function branchOf(ref: string): string | undefined {
  if (ref.startsWith(BRANCH_REF)) return ref.slice(BRANCH_REF.length) || undefined;
  return ref.startsWith('refs/') || ref === '' ? undefined : ref;
}

/** Whether the event is a push at all, before its body is read. */
export function eventOutcome(delivery: Pick<PushDelivery, 'form' | 'event'>): PushOutcome | undefined {
  if (delivery.form === 'github' && delivery.event === 'ping') return { kind: 'pong' };
  if (delivery.event !== PUSH_EVENTS[delivery.form]) return { kind: 'ignored', reason: `the event '${delivery.event.slice(0, 100)}' is not a push` };
  return undefined;
}

/**
 * What a push asks of a domain: only a push to the branch it indexes is indexed. A domain that
 * names no branch indexes the repository's default branch, which GitHub and GitLab name in the
 * push; a plain push that does not is ignored (set the domain's branch).
 */
export function pushOutcome(push: PushBodyIn, domainBranch: string | undefined): PushOutcome {
  const branch = branchOf(push.ref);
  if (branch === undefined) return { kind: 'ignored', reason: `'${push.ref.slice(0, 200)}' is not a branch` };
  const indexed = domainBranch ?? push.repository?.default_branch ?? push.project?.default_branch ?? undefined;
  if (indexed === undefined) return { kind: 'ignored', branch, reason: "the domain names no branch and the push does not say which is the repository's default: set the domain's branch" };
  if (branch !== indexed) return { kind: 'ignored', branch, reason: `the domain indexes the branch '${indexed}'` };
  if (push.deleted === true || (push.after !== undefined && push.after !== null && /^0+$/.test(push.after))) return { kind: 'ignored', branch, reason: 'the push deleted the branch' };
  return { kind: 'index', branch };
}
