import * as v from 'valibot';
import type { AnswerRecord } from './types.js';

const nullableString = v.nullable(v.string());

const AnswerRecordSchema = v.object({
  id: v.string(),
  orgId: v.string(),
  domainId: v.string(),
  threadId: nullableString,
  at: v.number(),
  question: v.string(),
  answer: v.string(),
  sources: v.array(v.object({ title: v.string(), url: v.string(), path: v.string() })),
  mode: v.picklist(['model', 'extractive']),
  surface: v.picklist(['assistant', 'openai', 'mcp']),
  caller: v.picklist(['browser', 'server', 'other']),
  fp: nullableString,
  currentPath: nullableString,
  resolution: v.picklist(['answered', 'unanswered']),
  unansweredReason: v.nullable(v.picklist(['no_passages', 'no_citation', 'no_match', 'failed'])),
  category: nullableString,
});

/** A stored answer record, or undefined when the text is not one (a record from a future version is skipped, not fatal). */
export function parseAnswerRecord(json: string): AnswerRecord | undefined {
  try {
    const parsed = v.safeParse(AnswerRecordSchema, JSON.parse(json));
    return parsed.success ? parsed.output : undefined;
  } catch {
    return undefined;
  }
}
