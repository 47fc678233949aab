import type { Conversation, Feedback, Source } from './shapes.js';

export type Rating = 'up' | 'down';
export type FeedbackFilter = 'all' | 'up' | 'down' | 'none';

export interface ConversationRow extends Conversation {
  rating: Rating | null;
  comment: string | null;
  resolution: Conversation['resolutionStatus'];
}

/**
 * The id of the thread page's note "(opens in a new tab)": each link of a rendered answer opens in a new
 * tab, as in the widget, and names the note as its description.
 */
export const NEW_TAB_NOTE = 'answer-new-tab';

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
    out.set(f.messageId, { rating: f.helpful ? 'up' : 'down', comment: f.comment });
  }
  return out;
}

/** Conversations with their rating, kept by the feedback filter, newest first. */
export function conversationRows(conversations: Conversation[], feedback: Feedback[], filter: FeedbackFilter): ConversationRow[] {
  const ratings = ratingsById(feedback);
  return conversations
    .map((c) => {
      const r = ratings.get(c.id);
      return { ...c, sources: citedSources(c.response, c.sources), rating: r?.rating ?? null, comment: r?.comment ?? null, resolution: c.resolutionStatus };
    })
    .filter((row) => filter === 'all' || (filter === 'none' ? row.rating === null : row.rating === filter))
    .sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
}
