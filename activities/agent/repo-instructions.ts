import { readResolved } from './confined-files.js';
import { resolveToolPath, ToolError } from './paths.js';

/**
 * The repository's instruction files, in the order they are read: Quire's own, then Mintlify's
 * (repositories written for Mintlify's agent keep theirs), then the cross-tool root AGENTS.md.
 * All that exist are used, each under its own heading, until the size bound is spent: the more
 * specific file comes first, so it is the one kept whole when the bound cuts.
 */
export const INSTRUCTION_FILES = ['.quire/AGENTS.md', '.mintlify/AGENTS.md', 'AGENTS.md'] as const;

export interface RepoInstructions {
  /** The text for the system prompt; empty when the repository has none. */
  text: string;
  /** The files whose text (all of it or its start) reached the prompt, repository-relative. */
  files: string[];
  /** Whether the bound cut some text. */
  truncated: boolean;
}

/**
 * Reads the instruction files from the repository root, at most `maxChars` characters in all.
 * Paths are resolved like the agent's own tools: a link that leads out of the workspace (or into
 * git's folder) is skipped, never followed.
 */
export async function readRepoInstructions(root: string, maxChars: number): Promise<RepoInstructions> {
  const parts: string[] = [];
  const files: string[] = [];
  let left = maxChars;
  let truncated = false;
  for (const file of INSTRUCTION_FILES) {
    const text = await readInstructionFile(root, file, left);
    if (text === undefined || text.trim() === '') continue;
    if (left <= 0) {
      truncated = true;
      break;
    }
    const kept = text.slice(0, left);
    if (kept.length < text.length) truncated = true;
    parts.push(`From ${file}:\n\n${kept.trim()}`);
    files.push(file);
    left -= kept.length;
  }
  return { text: parts.join('\n\n'), files, truncated };
}

/** A file's start, one character past the room left (to tell a cut), or undefined when it is absent or refused. */
async function readInstructionFile(root: string, file: string, room: number): Promise<string | undefined> {
  try {
    const full = await resolveToolPath({ root, docsRoot: root }, file);
    // UTF-8 takes at most 4 bytes a character.
    return await readResolved(full, file, { maxBytes: (Math.max(room, 0) + 1) * 4 });
  } catch (err) {
    if (err instanceof ToolError) return undefined;
    throw err;
  }
}
