import { randomUUID } from 'node:crypto';
import { AnswerCutShortError, MAX_SOURCES, numberedCitations } from '../assistant/index.js';
import { FILTER_SCHEMA, type FilterArgument } from './filter-schema.js';
import { argumentsOf } from './tool-arguments.js';
import { requireDomain, type DocsTool } from './tool.js';

interface AskArguments {
  question: string;
  filter?: FilterArgument;
}

const definition = {
  name: 'ask',
  title: 'Ask the documentation assistant',
  description:
    'Answers a question from the documentation, the way the site\'s assistant does: a short Markdown answer whose ' +
    '[n] markers link to the cited pages, plus the list of cited sources. When the site has no language model ' +
    'configured, the answer is the most relevant passages, quoted and labelled as such. Prefer search and get_page ' +
    'when you want to read the docs yourself; use ask for a direct, cited answer.',
  inputSchema: {
    type: 'object' as const,
    properties: {
      question: { type: 'string', minLength: 1, maxLength: 2000, pattern: '\\S', description: 'The question, in any language.' },
      filter: FILTER_SCHEMA,
    },
    required: ['question'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object' as const,
    properties: {
      answer: { type: 'string', description: 'The answer in Markdown; [n] markers are links to citation n.' },
      cutShort: {
        type: 'string',
        enum: ['length', 'content_filter'],
        description: 'Present when the model stopped before the answer was whole: at its output limit, or by its provider\'s content filter. The answer is the text so far.',
      },
      mode: { type: 'string', enum: ['model', 'extractive'], description: 'extractive: no language model, quoted passages.' },
      citations: {
        type: 'array',
        items: {
          type: 'object',
          properties: { index: { type: 'integer' }, title: { type: 'string' }, url: { type: 'string' }, path: { type: 'string' } },
          required: ['index', 'title', 'url', 'path'],
        },
      },
    },
    required: ['answer', 'mode', 'citations'],
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
};

const parse = argumentsOf<AskArguments>(definition);

/** `ask`: the assistant's retrieval and answerer, its answer collected whole. */
export const askTool: DocsTool = {
  definition,
  async run(args, ctx) {
    const { question, filter } = parse(args);
    const domain = requireDomain(ctx);
    await ctx.consume('answer');
    const prepared = await ctx.answers.prepare({ domain, conversation: { question: question.trim(), earlier: [] }, filter, pageSize: MAX_SOURCES }, ctx.signal);
    const run = ctx.answers.answer(prepared, {
      signal: ctx.signal,
      trace: { id: `mcp_${randomUUID()}`, orgId: ctx.orgId, domainId: domain.id, threadId: null, surface: 'mcp', caller: ctx.caller, fp: null, currentPath: null },
    });
    let text = '';
    let cutShort: AnswerCutShortError | undefined;
    try {
      for await (const delta of run.deltas) text += delta;
    } catch (err) {
      // An answer the model cut short is still an answer: its text, saying it is cut short. With no text it is a failure.
      if (!(err instanceof AnswerCutShortError) || !text.trim()) throw err;
      cutShort = err;
    }
    const linked = text.trim();
    const citations = numberedCitations(prepared.citations);
    const sources = citations.map((c) => `[${c.index}] [${c.title}](${c.url})`).join('\n');
    const notice = cutShort ? `\n\n_${cutShort.message}_` : '';
    return {
      content: [{ type: 'text', text: `${linked}${notice}${sources ? `\n\nSources:\n${sources}` : ''}` }],
      structuredContent: { answer: linked, mode: ctx.answers.mode, citations, ...(cutShort ? { cutShort: cutShort.finishReason } : {}) },
    };
  },
};
