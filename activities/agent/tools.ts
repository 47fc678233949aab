import fs from 'node:fs/promises';
import path from 'node:path';
import { boundTitle, isTodoStatus, MAX_TODO_CHARS, MAX_TODO_ID_CHARS, MAX_TODOS, type Todo } from '../../core/jobs/index.js';
import { readResolved, writeResolved } from './confined-files.js';
import { requireInDocs, resolveToolPath, shownPath, ToolError, type DocsRoots } from './paths.js';
import type { TurnBudget } from './turn-budget.js';

const MAX_LIST = 500;
const MAX_READ_CHARS = 60_000;
const MAX_MATCHES = 100;
const SEARCHABLE = /\.(mdx?|json|ya?ml|txt)$/i;

/** What the loop needs besides the file system: validation of the current changes, and git's ignore rules. */
export interface ToolContext extends DocsRoots {
  validate(): Promise<string[]>;
  /** True when the repository's ignore rules leave this file (a resolved path) out of commits. */
  isIgnored(file: string): Promise<boolean>;
  /** What this turn may still change; shared by the main loop and its fix rounds. */
  budget: TurnBudget;
}

export type ToolOutcome =
  | { output: string }
  | { finish: { title: string; summary: string }; output: string }
  | { todos: Todo[]; output: string };

type Args = Record<string, unknown>;

function text(args: Args, key: string, opts: { optional?: boolean } = {}): string {
  const value = args[key];
  if (value === undefined && opts.optional) return '';
  if (typeof value !== 'string') throw new ToolError(`argument ${key} must be a string`);
  return value;
}

function line(args: Args, key: string): number | undefined {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw new ToolError(`argument ${key} must be a whole number from 1`);
  return value;
}

/** The model's plan, checked against the bounds the job keeps: refused whole so the model resends it right. */
function todoList(args: Args): Todo[] {
  const items = args.todos;
  if (!Array.isArray(items)) throw new ToolError('todos must be an array of {id, content, status}');
  if (items.length > MAX_TODOS) throw new ToolError(`at most ${MAX_TODOS} todos; merge small steps`);
  const todos = items.map((item: unknown, i): Todo => {
    if (typeof item !== 'object' || item === null) throw new ToolError(`todos[${i}] must be an object {id, content, status}`);
    const id: unknown = 'id' in item ? item.id : undefined;
    const content: unknown = 'content' in item ? item.content : undefined;
    const status: unknown = 'status' in item ? item.status : undefined;
    if (typeof id !== 'string' || id.trim() === '' || id.length > MAX_TODO_ID_CHARS) throw new ToolError(`todos[${i}].id must be a string of 1 to ${MAX_TODO_ID_CHARS} characters`);
    if (typeof content !== 'string' || content.trim() === '' || content.length > MAX_TODO_CHARS)
      throw new ToolError(`todos[${i}].content must be a string of 1 to ${MAX_TODO_CHARS} characters`);
    if (!isTodoStatus(status)) throw new ToolError(`todos[${i}].status must be pending, in_progress or completed`);
    return { id: id.trim(), content: content.trim(), status };
  });
  if (new Set(todos.map((t) => t.id)).size !== todos.length) throw new ToolError('todo ids must be distinct');
  return todos;
}

/**
 * The files under `dir` that `accept` takes, in name order, at most MAX_LIST (then `cut` is true).
 * Filtered while walking, so files of no interest (images) never use up the bound.
 */
async function walk(dir: string, shown: string, accept: (file: string) => boolean = () => true): Promise<{ files: string[]; cut: boolean }> {
  const top = await fs.stat(dir).catch(() => undefined);
  if (!top?.isDirectory()) throw new ToolError(`${shown || 'the docs folder'} does not exist or is not a folder`);
  const files: string[] = [];
  let cut = false;
  const visit = async (folder: string): Promise<void> => {
    const entries = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name === '.git' || e.name === 'node_modules') continue;
      const full = path.join(folder, e.name);
      if (e.isDirectory()) await visit(full);
      else if (e.isFile() && accept(full)) {
        if (files.length >= MAX_LIST) cut = true;
        else files.push(full);
      }
      if (cut) return;
    }
  };
  await visit(dir);
  return { files, cut };
}

/** Refuses a path git would leave out of the commit: the model would report a change the branch never gets. */
async function requireCommitted(ctx: ToolContext, full: string, shown: string): Promise<void> {
  if (await ctx.isIgnored(full)) throw new ToolError(`${shown} is ignored by the repository (.gitignore): a file there is never committed; choose another path`);
}

/** Refuses a path that is not a regular file or a link (delete and move act on links themselves). */
async function requireEntry(full: string, shown: string): Promise<void> {
  const stat = await fs.lstat(full).catch(() => undefined);
  if (!stat || !(stat.isFile() || stat.isSymbolicLink())) throw new ToolError(`${shown} does not exist or is not a file`);
}

const handlers: Record<string, (ctx: ToolContext, args: Args) => Promise<ToolOutcome>> = {
  async list_files(ctx, args) {
    const shownDir = typeof args.path === 'string' ? args.path : '';
    const dir = await resolveToolPath(ctx, args.path ?? '', { allowRoot: true });
    const { files, cut } = await walk(dir, shownDir);
    const listed = files.map((f) => shownPath(shownDir, dir, f));
    const more = cut ? `\n(first ${MAX_LIST} files shown; list a subfolder for more)` : '';
    return { output: listed.length ? listed.join('\n') + more : '(no files)' };
  },
  async read_file(ctx, args) {
    const shown = text(args, 'path');
    const content = await readResolved(await resolveToolPath(ctx, shown), shown);
    const lines = content.split('\n');
    const start = line(args, 'start_line') ?? 1;
    const end = Math.min(line(args, 'end_line') ?? lines.length, lines.length);
    if (start > lines.length) throw new ToolError(`${shown} has only ${lines.length} lines`);
    let body = lines.slice(start - 1, end).map((l, i) => `${start + i}| ${l}`).join('\n');
    if (body.length > MAX_READ_CHARS) body = body.slice(0, MAX_READ_CHARS) + '\n(truncated; read a smaller line range)';
    return { output: `${shown} (lines ${start}-${end} of ${lines.length})\n${body}` };
  },
  async search_text(ctx, args) {
    const query = text(args, 'query');
    if (query.trim() === '') throw new ToolError('query must not be empty');
    const shownDir = typeof args.path === 'string' ? args.path : '';
    const dir = await resolveToolPath(ctx, args.path ?? '', { allowRoot: true });
    const { files, cut } = await walk(dir, shownDir, (f) => SEARCHABLE.test(f));
    const needle = query.toLowerCase();
    const matches: string[] = [];
    for (const file of files) {
      const lines = (await readResolved(file, file).catch(() => '')).split('\n');
      lines.forEach((l, i) => {
        if (matches.length < MAX_MATCHES && l.toLowerCase().includes(needle)) matches.push(`${shownPath(shownDir, dir, file)}:${i + 1}: ${l.slice(0, 200)}`);
      });
    }
    const searched = cut ? `\n(only the first ${MAX_LIST} text files were searched; search a subfolder for the rest)` : '';
    return { output: (matches.length ? matches.join('\n') : `no matches for "${query}"`) + searched };
  },
  async write_file(ctx, args) {
    const shown = text(args, 'path');
    const content = text(args, 'content');
    const full = await resolveToolPath(ctx, shown);
    await requireInDocs(ctx, full, shown);
    await requireCommitted(ctx, full, shown);
    ctx.budget.admitWrite(full, Buffer.byteLength(content));
    await writeResolved(full, content, shown);
    return { output: `wrote ${shown} (${content.split('\n').length} lines)` };
  },
  async replace_text(ctx, args) {
    const shown = text(args, 'path');
    const oldText = text(args, 'old_text');
    const newText = text(args, 'new_text');
    if (oldText === '') throw new ToolError('old_text must not be empty');
    const full = await resolveToolPath(ctx, shown);
    await requireInDocs(ctx, full, shown);
    const content = await readResolved(full, shown);
    const count = content.split(oldText).length - 1;
    if (count === 0) throw new ToolError(`old_text was not found in ${shown}; read the file and copy the text exactly, including whitespace`);
    if (count > 1) throw new ToolError(`old_text occurs ${count} times in ${shown}; include more surrounding text so it matches exactly once`);
    const at = content.indexOf(oldText);
    const updated = content.slice(0, at) + newText + content.slice(at + oldText.length);
    ctx.budget.admitWrite(full, Buffer.byteLength(updated));
    await writeResolved(full, updated, shown);
    return { output: `replaced 1 occurrence in ${shown}` };
  },
  async delete_file(ctx, args) {
    const shown = text(args, 'path');
    const full = await resolveToolPath(ctx, shown, { followLast: false });
    await requireInDocs(ctx, full, shown);
    await requireEntry(full, shown);
    ctx.budget.admitChange(full);
    await fs.rm(full);
    ctx.budget.deleted(full);
    return { output: `deleted ${shown}` };
  },
  async move_file(ctx, args) {
    const from = text(args, 'from');
    const to = text(args, 'to');
    const src = await resolveToolPath(ctx, from, { followLast: false });
    const dst = await resolveToolPath(ctx, to, { followLast: false });
    await requireInDocs(ctx, src, from);
    await requireInDocs(ctx, dst, to);
    await requireEntry(src, from);
    if (await fs.lstat(dst).then(() => true, () => false)) throw new ToolError(`${to} already exists; delete it first or choose another name`);
    await requireCommitted(ctx, dst, to);
    ctx.budget.admitChange(src, dst);
    await fs.mkdir(path.dirname(dst), { recursive: true });
    if ((await fs.realpath(path.dirname(dst))) !== path.dirname(dst)) throw new ToolError(`a folder of ${to} changed while moving; try again`);
    await fs.rename(src, dst);
    ctx.budget.moved(src, dst);
    return { output: `moved ${from} to ${to}` };
  },
  async validate(ctx) {
    const errors = await ctx.validate();
    return { output: errors.length ? `${errors.length} problem(s):\n${errors.join('\n')}` : 'no problems found' };
  },
  async todo_write(_ctx, args) {
    const todos = todoList(args);
    const done = todos.filter((t) => t.status === 'completed').length;
    return { todos, output: `plan saved: ${todos.length} item(s), ${done} completed` };
  },
  async finish(_ctx, args) {
    // Checked as the job will keep it: a title of control characters alone would be an empty pull request title.
    const title = boundTitle(text(args, 'title'));
    const summary = text(args, 'summary', { optional: true }).trim();
    if (title === '') throw new ToolError('title must not be empty: one line of plain text');
    return { finish: { title, summary }, output: 'turn finished' };
  },
};

export const TOOL_NAMES = Object.keys(handlers);

/**
 * Runs one tool call. Every problem the model caused (unknown tool, unparseable arguments,
 * a refused path, a failed file operation) comes back as a readable message, never an exception.
 */
export async function executeTool(ctx: ToolContext, name: string, rawArgs: string): Promise<ToolOutcome> {
  const handler = Object.hasOwn(handlers, name) ? handlers[name] : undefined;
  if (!handler) return { output: `error: unknown tool "${name}"; available tools: ${TOOL_NAMES.join(', ')}` };
  let args: unknown;
  try {
    args = rawArgs.trim() === '' ? {} : JSON.parse(rawArgs);
  } catch {
    return { output: `error: the arguments of ${name} are not valid JSON; send a JSON object` };
  }
  if (!args || typeof args !== 'object' || Array.isArray(args)) return { output: `error: the arguments of ${name} must be a JSON object` };
  try {
    return await handler(ctx, { ...args });
  } catch (err) {
    if (err instanceof ToolError) return { output: `error: ${err.message}` };
    const code = err instanceof Error && 'code' in err ? String(err.code) : '';
    // File-system failures are the model's to correct (EISDIR, ENOTDIR…); the path is docs-relative already.
    return { output: `error: ${name} failed${code ? ` (${code})` : ''}` };
  }
}
