import { escapeHtml as escape } from './diff-html.js';

/** A word the shell reads as itself; anything else goes in single quotes. */
const shellWord = (word: string) => (/^[A-Za-z0-9._/@%+=:,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * The repository as its users clone it: a URL (credentials left out) or
 * `host:path`; undefined for a folder on the server, which a reader's
 * machine cannot reach and whose path the page does not reveal.
 */
export function cloneAddress(repository: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repository)) {
    try {
      const url = new URL(repository);
      if (url.protocol === 'file:') return undefined;
      url.username = '';
      url.password = '';
      return url.toString();
    } catch {
      return undefined;
    }
  }
  // scp-like `git@host:group/repo.git`: no password can ride in it.
  return /^[^/\\\s@]+@[^/\\\s:]+:/.test(repository) ? repository : undefined;
}

/**
 * How a reviewer fetches and merges the branch, from their own clone of the
 * project's repository (its remote `origin`): the commands are the same
 * whether that repository is served by a git host or is a bare repository
 * on the Quire server, so the page never needs a server path.
 */
export function mergeHelpHtml(repository: string, branch: string, base: string): string {
  const address = cloneAddress(repository);
  const head = shellWord(branch);
  const into = shellWord(base);
  const commands = [
    ...(address ? [`git clone ${shellWord(address)}   # once, then work in the clone`] : []),
    'git fetch origin',
    `git switch ${head}            # try the change locally`,
    `git switch ${into}`,
    `git merge --no-ff ${head}`,
    `git push origin ${into}`,
  ];
  const where = address
    ? `The branch is in the project's repository, <code>${escape(address)}</code>.`
    : "The branch is in the project's repository, where Quire pushed it: run these in your clone of it (its remote <code>origin</code>).";
  return `<section class="merge"><h2>Fetch and merge</h2><p>${where}</p><pre><code>${escape(commands.join('\n'))}</code></pre></section>`;
}
