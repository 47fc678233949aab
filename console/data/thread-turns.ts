/**
 * A thread's turns as the thread page shows them, each answer rendered by the widget's renderer.
 * The renderer brings markdown-it, which only the thread page needs: the page imports this module
 * when it opens, so the console's first load does without it.
 */
import { answerRenderer } from '../../core/markdown/answer.js';
import { AnswerSources } from '../../core/markdown/answer-sources.js';
import { NEW_TAB_NOTE, ratingsById, type Rating } from './conversations.js';
import type { Conversation, Feedback, Source, ThreadResponse } from './shapes.js';

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

export interface ThreadTurn {
  id: string;
  role: ThreadResponse['messages'][number]['role'];
  /** A question as the reader typed it (shown as text); an answer's Markdown as stored. */
  content: string;
  /** An answer as the reader saw it, rendered (see `shownAnswer`); null for a question. */
  html: string | null;
  createdAt: string;
  /** The pages an answer cites, in the order its citations number them. */
  sources: Source[];
  resolution: Conversation['resolutionStatus'] | null;
  rating: Rating | null;
  comment: string | null;
}

/**
 * A thread as the console shows it: Mintlify's messages, each answer rendered
 * as the reader saw it (links on the domain's docs site, `site`) with the
 * sources it cited and its rating. Sources and rating come from the message
 * itself when the server puts them there, else from the listing's answers of
 * that thread (`known`) and the feedback listing.
 */
export function threadTurns(thread: ThreadResponse, feedback: Feedback[], known: Conversation[] = [], site?: string): ThreadTurn[] {
  const answers = new Map(known.map((c) => [c.id, c]));
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
      resolution: answer ? answer.resolutionStatus : null,
      rating: rating?.rating ?? null,
      comment: rating?.comment ?? null,
    };
  });
}
