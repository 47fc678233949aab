import { answerRenderer } from '../../core/markdown/answer.js';
import { AnswerSources } from '../../core/markdown/answer-sources.js';
import type { Conversation, Feedback, Source, ThreadResponse } from './shapes.js';
import { resolutionOf } from './charts.js';

export type Rating = 'up' | 'down';
export type FeedbackFilter = 'all' | 'up' | 'down' | 'none';

export interface ConversationRow extends Conversation {
  rating: Rating | null;
  comment: string | null;
  resolution: 'answered' | 'unanswered';
}

/**
 * The id of the thread page's note "(opens in a new tab)": each link of a rendered answer opens in a new
 * tab, as in the widget, and names the note as its description.
 */
export const NEW_TAB_NOTE = 'answer-new-tab';

const renderAnswer = answerRenderer({ image: 'Image', relatedPages: 'Related pages' }, NEW_TAB_NOTE);

/** An answer as the console shows it: its Markdown as HTML, and the pages it cites, in the order its `[n]` number them. */
export interface ShownAnswer {
  html: string;
  cited: Source[];
}

/**
 * An answer as the reader saw it in the widget, rendered by the widget's own
 * renderer: emphasis, code and links as such, raw HTML as text, images as
 * links, citations (`[[n]](url)`, or a bare `[n]`: the n-th of the `passages`
 * it was given) numbered in order of first citation and linked to their pages,
 * and its `suggestions` block as a list of related pages. Site-relative links
 * resolve against the domain's docs site (`site`), as the widget resolves
 * them against the site its search hits name.
 */
export function shownAnswer(markdown: string, passages: Source[], site: string | undefined): ShownAnswer {
  const sources = new AnswerSources();
  // As search hits: citable by their place, listed only once cited.
  for (const p of passages) sources.addHit(p.url, p.title);
  const { html, cited } = renderAnswer(markdown, sources, { docsUrl: undefined, site });
  return { html, cited: sources.listed(cited).map(({ title, url }) => ({ title, url })) };
}

/**
 * The sources an answer cites: those whose marker `[n]` its text holds (the n-th of the passages
 * it was given). An answer that found nothing cites none, however many passages were searched.
 */
export function citedSources(content: string, sources: Source[]): Source[] {
  const cited = new Set([...content.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  return sources.filter((_, i) => cited.has(i + 1));
}

/** The rating of each answer, by message id (the conversation id of Quire's listing). */
export function ratingsById(feedback: Feedback[]): Map<string, { rating: Rating; comment: string | null }> {
  const out = new Map<string, { rating: Rating; comment: string | null }>();
  for (const f of feedback) {
    if (f.helpful === undefined) continue;
    out.set(f.messageId ?? f.id, { rating: f.helpful ? 'up' : 'down', comment: f.comment });
  }
  return out;
}

/** Conversations with their rating, kept by the feedback filter, newest first. */
export function conversationRows(conversations: Conversation[], feedback: Feedback[], filter: FeedbackFilter): ConversationRow[] {
  const ratings = ratingsById(feedback);
  return conversations
    .map((c) => {
      const r = ratings.get(c.id);
      return { ...c, sources: citedSources(c.response, c.sources), rating: r?.rating ?? null, comment: r?.comment ?? null, resolution: resolutionOf(c) };
    })
    .filter((row) => filter === 'all' || (filter === 'none' ? row.rating === null : row.rating === filter))
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
}

export interface ThreadTurn {
  id: string;
  role: 'user' | 'assistant';
  /** A question as the reader typed it (shown as text); an answer's Markdown as stored. */
  content: string;
  /** An answer as the reader saw it, rendered (see `shownAnswer`); null for a question. */
  html: string | null;
  createdAt: string;
  /** The pages an answer cites, in the order its citations number them. */
  sources: Source[];
  resolution: 'answered' | 'unanswered' | null;
  rating: Rating | null;
  comment: string | null;
}

/**
 * A thread as the console shows it: Mintlify's messages, each answer rendered
 * as the reader saw it (links on the domain's docs site, `site`) with the
 * sources it cited and its rating. Sources and rating come from the message
 * itself when the server puts them there, else from the thread's
 * `conversations` or the listing's answers of that thread (`known`) and the
 * feedback listing.
 */
export function threadTurns(thread: ThreadResponse, feedback: Feedback[], known: Conversation[] = [], site?: string): ThreadTurn[] {
  const answers = new Map([...known, ...(thread.conversations ?? [])].map((c) => [c.id, c]));
  const ratings = ratingsById(feedback.filter((f) => !f.threadId || f.threadId === thread.threadId));
  return thread.messages.map((m) => {
    const { sources: own, feedback: ownRating, ...message } = m;
    if (m.role !== 'assistant') return { ...message, html: null, sources: [], resolution: null, rating: null, comment: null };
    const answer = answers.get(m.id);
    const shown = shownAnswer(m.content, own ?? answer?.sources ?? [], site);
    // The message's own rating when the server sends one (null: not rated), else the feedback listing's.
    const rating = ownRating !== undefined ? (ownRating && { rating: ownRating.helpful ? ('up' as const) : ('down' as const), comment: ownRating.comment }) : ratings.get(m.id);
    return {
      ...message,
      html: shown.html,
      sources: shown.cited,
      resolution: answer ? resolutionOf(answer) : null,
      rating: rating?.rating ?? null,
      comment: rating?.comment ?? null,
    };
  });
}

interface LegacyExchange {
  messageId: string;
  question: string;
  answer: string;
  startedAt: string;
  finishedAt: string;
}

/**
 * Reads a thread in Mintlify's shape (`messages`), or in the shape Quire
 * answered before it (`exchanges`: one question and answer each).
 */
export function normalizeThread(raw: unknown): ThreadResponse {
  const body = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<ThreadResponse> & { exchanges?: LegacyExchange[] };
  const threadId = String(body.threadId ?? '');
  const createdAt = String(body.createdAt ?? '');
  const conversations = Array.isArray(body.conversations) ? body.conversations : undefined;
  if (Array.isArray(body.messages)) return { threadId, createdAt, messages: body.messages, ...(conversations ? { conversations } : {}) };
  const messages = (body.exchanges ?? []).flatMap((e) => [
    { id: `${e.messageId}:question`, role: 'user' as const, content: e.question, createdAt: e.startedAt },
    { id: e.messageId, role: 'assistant' as const, content: e.answer, createdAt: e.finishedAt },
  ]);
  return { threadId, createdAt, messages, ...(conversations ? { conversations } : {}) };
}
