import { ToolError } from './tool-error.js';

/** Longest file or folder name most file systems accept, in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;
/** Longest docs-relative path a tool accepts: deep enough for any docs tree, short enough to show in a diff header. */
export const MAX_PATH_BYTES = 512;

// Control, format (zero-width and bidirectional marks), unassigned and private-use characters, and line or
// paragraph separators: they make names that look like others, break `git diff` headers and pull-request pages.
const UNPRINTABLE = /[\p{C}\p{Zl}\p{Zp}]/u;

const describe = (ch: string) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * Whether a name is git's own folder in any spelling git itself refuses to track: any case of
 * `.git`, with trailing dots or spaces (NTFS drops them), or its 8.3 short name `git~1`.
 */
export function isGitFolderName(name: string): boolean {
  const folded = name.toLowerCase();
  return folded.replace(/[. ]+$/, '') === '.git' || folded === 'git~1';
}

/** Refuses a model-supplied path whose names are unprintable, too long, or name git's folder. */
export function checkPathNames(segments: string[], shown: string): void {
  const bad = segments.join('/').match(UNPRINTABLE);
  if (bad) throw new ToolError(`path ${JSON.stringify(shown)} contains an unprintable character (${describe(bad[0])}); use printable characters only`);
  if (Buffer.byteLength(segments.join('/')) > MAX_PATH_BYTES)
    throw new ToolError(`path is longer than ${MAX_PATH_BYTES} bytes; choose a shorter path`);
  for (const segment of segments) {
    if (Buffer.byteLength(segment) > MAX_NAME_BYTES)
      throw new ToolError(`the name ${JSON.stringify(segment.slice(0, 40) + '…')} is longer than ${MAX_NAME_BYTES} bytes; choose a shorter name`);
    if (isGitFolderName(segment)) throw new ToolError(`the .git folder is off limits (${shown})`);
  }
}
