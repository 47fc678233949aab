import { rooted } from '../api/client.js';
import { useEffect, useState } from 'preact/hooks';
import * as analytics from '../api/analytics.js';
import { Show, useLoad } from '../components/async.js';
import { Page } from '../components/page.js';
import { PeriodPicker, type PeriodProps } from '../components/period.js';
import { conversationRows, type FeedbackFilter } from '../data/conversations.js';
import type { Period } from '../data/period.js';

const RATING_TEXT = { up: 'Thumbs up', down: 'Thumbs down' } as const;

const FILTERS: readonly FeedbackFilter[] = ['all', 'up', 'down', 'none'];

/** The most the page reads of a period, of conversations and of ratings alike; it says when a period holds more. */
const READ_AT_MOST = 1000;

/** The listing's filter as the URL holds it (`?feedback`; the shell keeps the period beside it), or all. */
function filterOf(search: string): FeedbackFilter {
  const feedback = new URLSearchParams(search).get('feedback');
  return FILTERS.find((f) => f === feedback) ?? 'all';
}

/** The listing's query, kept in the URL and in each thread's link, so "Back to conversations" finds the listing as it was. */
const listingQuery = (period: Period, filter: FeedbackFilter) => `?${new URLSearchParams({ from: period.dateFrom, to: period.dateTo, feedback: filter }).toString()}`;

/** What readers asked the domain's assistant, filtered by period and rating; each opens its thread. */
export function ConversationsPage({ domain, period, onPeriodChange }: { path?: string; domain: string } & PeriodProps) {
  const [filter, setFilter] = useState<FeedbackFilter>(() => filterOf(location.search));
  const query = listingQuery(period, filter);
  useEffect(() => history.replaceState(history.state, '', `${location.pathname}${query}`), [query]);
  const [loaded] = useLoad(async () => {
    const [conversations, feedback] = await Promise.all([analytics.conversations(domain, period, READ_AT_MOST), analytics.feedback(domain, period, READ_AT_MOST)]);
    return { conversations, feedback };
  }, [domain, period.dateFrom, period.dateTo]);

  return (
    <Page title="Conversations">
      <div class="filters">
        <PeriodPicker period={period} onChange={onPeriodChange} />
        <label>
          Feedback
          <select value={filter} onChange={(e) => setFilter(e.currentTarget.value as FeedbackFilter)}>
            <option value="all">All</option>
            <option value="up">Thumbs up</option>
            <option value="down">Thumbs down</option>
            <option value="none">Not rated</option>
          </select>
        </label>
      </div>
      <Show loaded={loaded}>
        {({ conversations, feedback }) => {
          const rows = conversationRows(conversations.items, feedback.items, filter);
          const most = READ_AT_MOST.toLocaleString('en-GB');
          return (
            <>
              {conversations.more ? (
                <p class="hint" data-limited="conversations">
                  Showing the newest {most} conversations of this period; choose a shorter period to see older ones.
                </p>
              ) : null}
              {feedback.more ? (
                <p class="hint" data-limited="feedback">
                  Ratings are read up to the newest {most} of this period, so an older answer may show as not rated; choose a shorter period to see its rating.
                </p>
              ) : null}
              {rows.length === 0 ? (
                <NoRows asked={conversations.items.length} filter={filter} onShowAll={() => setFilter('all')} />
              ) : (
                <ul class="list conversations" aria-label="Conversations">
                  {rows.map((row) => (
                    <li key={row.id} class="card">
                      <p class="question">
                        {row.threadId ? <a href={rooted(`/console/conversations/${encodeURIComponent(row.threadId)}${query}`)}>{row.query}</a> : row.query}
                      </p>
                      <p class="meta">
                        <time dateTime={row.timestamp}>{formatTime(row.timestamp)}</time>
                        <span class={`badge ${row.resolution}`}>{row.resolution === 'answered' ? 'Answered' : 'Unanswered'}</span>
                        {row.rating ? <span class={`badge ${row.rating}`}>{RATING_TEXT[row.rating]}</span> : null}
                        <span>
                          {row.sources.length} source{row.sources.length === 1 ? '' : 's'}
                        </span>
                      </p>
                    </li>
                  ))}
                </ul>
              )}
            </>
          );
        }}
      </Show>
    </Page>
  );
}

/** What the feedback filter keeps, as the empty listing names it. */
const KEPT: Record<Exclude<FeedbackFilter, 'all'>, string> = { up: 'rated thumbs up', down: 'rated thumbs down', none: 'left without a rating' };

/**
 * An empty listing says why: nobody asked in the period (and where questions come from), or the
 * period has questions that the feedback filter leaves out (and a way to see them all).
 */
function NoRows({ asked, filter, onShowAll }: { asked: number; filter: FeedbackFilter; onShowAll: () => void }) {
  if (asked === 0 || filter === 'all') {
    return (
      <p class="empty">
        No questions in this period. Readers' questions to the assistant show here once the widget is on your docs site: its tag is in{' '}
        <a href={rooted('/console/settings/domains')}>Settings, Domains</a>.
      </p>
    );
  }
  return (
    <div class="load-error">
      <p class="empty">
        None of the {asked} question{asked === 1 ? '' : 's'} of this period was {KEPT[filter]}.
      </p>
      <button type="button" class="secondary" onClick={onShowAll}>
        Show all conversations
      </button>
    </div>
  );
}

/** A timestamp as `26 Nov 2026, 08:40 UTC`. */
export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const date = d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  const time = d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${date}, ${time} UTC`;
}
