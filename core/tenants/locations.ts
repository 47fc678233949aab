import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a project's repository or a domain's docs source may be, when an organisation's admin
 * names it (the admin API, the console): a clone URL, or a path on this machine only under a
 * folder the operator lists (QUIRE_ADMIN_LOCAL_PATHS). The worker reads local paths in place, so
 * any other path would let one organisation index or clone what the machine holds: another
 * organisation's docs, Quire's own data. The operator (the CLI, the seed file) names any path.
 */

/** Network addresses git reaches: a URL of its network transports, or scp-style `user@host:path`. */
const REMOTE = /^(?:(?:https?|ssh|git):\/\/|[\w.-]+@[\w.-]+:)/i;
/** git's `<transport>::<address>`: a remote helper (ext:: runs a command), never a repository of ours. */
const HELPER = /^[\w+.-]+::/;

/** The path on this machine a location names, or undefined for a network address. */
export function localPathOf(location: string): string | undefined {
  if (REMOTE.test(location)) return undefined;
  if (/^file:/i.test(location)) {
    try {
      return fileURLToPath(location);
    } catch {
      return location;
    }
  }
  return path.resolve(location);
}

const within = (roots: readonly string[], target: string) => roots.some((root) => target === root || target.startsWith(root.endsWith(path.sep) ? root : root + path.sep));

/**
 * The one refusal of a path on this machine an admin may not name, whatever the reason (outside
 * `roots`, or a folder of another organisation's): it states the rule and names nothing of theirs,
 * so it tells no one whether another organisation reads a folder.
 */
export function localPathRefusal(roots: readonly string[]): string {
  const allowed =
    roots.length > 0 ? ` or a folder under ${roots.join(', ')} that no other organisation's project or domain reads (nor one inside or around such a folder)` : '';
  return `is a path on the server this organisation may not name; give a clone URL (https://, ssh://, git@host:path)${allowed}. Other paths are set by the operator (the quire CLI; QUIRE_ADMIN_LOCAL_PATHS lists the folders an admin may name)`;
}

/**
 * Why an organisation's admin may not name `location`, or undefined when they may: a remote
 * helper, or a path on this machine outside `roots` (or reaching outside them through a link).
 */
export async function locationProblem(location: string, roots: readonly string[]): Promise<string | undefined> {
  if (HELPER.test(location)) return "names a git remote helper (transport::address); give a clone URL (https://, ssh://, git@host:path)";
  const local = localPathOf(location);
  if (local === undefined) return undefined;
  const refusal = localPathRefusal(roots);
  if (!within(roots, local)) return refusal;
  // A link inside an allowed folder may lead out of it: what counts is where it leads.
  const real = await fs.realpath(local).catch(() => undefined);
  if (real !== undefined && !within(await Promise.all(roots.map((r) => fs.realpath(r).catch(() => r))), real)) return refusal;
  return undefined;
}

/**
 * Why an organisation's admin may not name `location` beside `taken` (where other organisations'
 * projects and domains are), or undefined: a folder on this machine that one of them reads, or a
 * folder inside or around one, would let this organisation index, clone or push to theirs. The
 * refusal is the one of any path it may not name (`localPathRefusal`).
 */
export async function takenLocationProblem(location: string, roots: readonly string[], taken: () => Promise<readonly string[]>): Promise<string | undefined> {
  const local = localPathOf(location);
  if (local === undefined) return undefined;
  const real = (folder: string) => fs.realpath(folder).catch(() => folder);
  const mine = await real(local);
  for (const other of await taken()) {
    const theirs = localPathOf(other);
    if (theirs === undefined) continue;
    const folder = await real(theirs);
    if (within([folder], mine) || within([mine], folder)) {
      return localPathRefusal(roots);
    }
  }
  return undefined;
}
