/**
 * What a job says it did: the agent's plan (todos), the model's message to the
 * user and the bound that stopped a turn. These values travel through workflow
 * history and the memo, so each is bounded here, once, for every writer.
 * Pure types and functions only: the workflow sandbox imports this file.
 */
import type { InferOutput } from 'valibot';
import { withoutCutSurrogate } from '../unicode.js';
// Types only (erased): the schema is a value of a valibot module the sandbox must not bundle.
import type { TodoSchema } from './job-schema.js';

export const TODO_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One item of the agent's plan, as the model wrote it with its todo tool (declared in job-schema.ts). */
export type Todo = InferOutput<typeof TodoSchema>;

/** Items in the plan: enough for a docs change, small enough for workflow history. */
export const MAX_TODOS = 20;
export const MAX_TODO_CHARS = 200;
export const MAX_TODO_ID_CHARS = 40;
/** Characters of the model's message to the user kept on the job (and quoted in the pull request). */
export const MAX_SUMMARY_CHARS = 2000;

/** The bounds that can stop a turn before the model finishes. */
export const JOB_STOP_REASONS = ['max_steps', 'max_tokens', 'max_time'] as const;
export type JobStopReason = (typeof JOB_STOP_REASONS)[number];

export function isJobStopReason(value: unknown): value is JobStopReason {
  return typeof value === 'string' && (JOB_STOP_REASONS as readonly string[]).includes(value);
}

export function isTodoStatus(value: unknown): value is TodoStatus {
  return typeof value === 'string' && (TODO_STATUSES as readonly string[]).includes(value);
}

/** `text` in at most `max` UTF-16 units, cut with an ellipsis, never inside a character (PostgreSQL refuses a lone surrogate). */
function clip(text: string, max: number): string {
  return text.length > max ? `${withoutCutSurrogate(text.slice(0, max - 1))}…` : text;
}

/** Characters of a turn's title kept on the job (its pull request's title). */
export const MAX_TITLE_CHARS = 200;

// C0 controls but tab and newline, and DEL: git refuses a NUL in a commit message, PostgreSQL in text.
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/** Model-written text without the control characters no commit, record or page should carry. */
export function printable(text: string): string {
  return text.replace(CONTROL, '');
}

/** The title as the job keeps it (its pull request's title): printable, on one line, trimmed and cut to MAX_TITLE_CHARS. */
export function boundTitle(title: string): string {
  return clip(printable(title).replace(/\s+/g, ' ').trim(), MAX_TITLE_CHARS);
}

/** The summary as the job keeps it: printable, trimmed and cut to MAX_SUMMARY_CHARS. */
export function boundSummary(summary: string): string {
  return clip(printable(summary).trim(), MAX_SUMMARY_CHARS);
}

/** A todo list as the job keeps it: at most MAX_TODOS items, each text printable and cut to its bound. */
export function boundTodos(todos: readonly Todo[]): Todo[] {
  return todos.slice(0, MAX_TODOS).map((t) => ({ id: clip(printable(t.id), MAX_TODO_ID_CHARS), content: clip(printable(t.content), MAX_TODO_CHARS), status: t.status }));
}
