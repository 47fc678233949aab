import { rooted } from '../api/client.js';
import * as analytics from '../api/analytics.js';
import { Show, useLoad } from '../components/async.js';
import { Page } from '../components/page.js';
import { backFromThread, lastDays } from '../data/period.js';
import { NEW_TAB_NOTE } from '../data/conversations.js';
import { formatTime } from './conversations.js';

/**
 * One thread: each question, each answer as the reader saw it in the widget
 * (its Markdown rendered by the widget's renderer, which lets no HTML of the
 * answer through, its links going to the domain's docs site, `site`), the
 * sources each answer cited, and how the reader rated it.
 */
export function ThreadPage({ domain, site, threadId = '' }: { path?: string; domain: string; site?: string; threadId?: string }) {
  const [loaded] = useLoad(async () => {
    const period = lastDays(365);
    // The renderer (markdown-it) is read with the thread, not on the console's first load.
    const [thread, feedback, { threadTurns }] = await Promise.all([analytics.thread(domain, threadId), analytics.feedback(domain, period), import('../data/thread-turns.js')]);
    // The listing's answers carry what the thread's messages may not: their sources, and whether each was answered.
    const known = (await analytics.conversations(domain, period, 1000)).items.filter((c) => c.threadId === threadId);
    return threadTurns(thread, feedback.items, known, site);
  }, [domain, threadId, site]);

  const back = backFromThread(location.search);
  return (
    <Page title="Thread" actions={<a href={rooted(back.href)}>{back.label}</a>}>
      <p class="meta">
        Thread <code>{threadId}</code>
      </p>
      <span id={NEW_TAB_NOTE} hidden>
        (opens in a new tab)
      </span>
      <Show loaded={loaded}>
        {(turns) => (
          <ol class="thread" aria-label="Messages">
            {turns.map((t) => (
              <li key={t.id} class={`card turn ${t.role}`}>
                <h2 class="turn-head">
                  {t.role === 'user' ? 'Reader' : 'Assistant'}
                  <time dateTime={t.createdAt}>{formatTime(t.createdAt)}</time>
                </h2>
                {t.html === null ? (
                  <p class="content">{t.content}</p>
                ) : (
                  // The renderer's HTML: built from tokens, raw HTML of the answer escaped, only safe links (core/markdown/answer.ts).
                  <div class="answer-text" dangerouslySetInnerHTML={{ __html: t.html }} />
                )}
                {t.role === 'assistant' ? (
                  <>
                    {t.resolution === 'unanswered' ? <p class="badge unanswered">Unanswered</p> : null}
                    {t.sources.length > 0 ? (
                      <div class="sources">
                        <h3>Sources cited</h3>
                        <ul>
                          {t.sources.map((s) => (
                            <li key={s.url}>
                              <a href={s.url} rel="noreferrer noopener" target="_blank">
                                {s.title || s.url}
                              </a>
                            </li>
                          ))}
                        </ul>
                      </div>
                    ) : (
                      <p class="hint">No sources cited.</p>
                    )}
                    <p class="rating">
                      Feedback: {t.rating === 'up' ? 'Thumbs up' : t.rating === 'down' ? 'Thumbs down' : 'not rated'}
                      {t.comment ? (
                        <>
                          {' '}
                          <q>{t.comment}</q>
                        </>
                      ) : null}
                    </p>
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </Show>
    </Page>
  );
}
