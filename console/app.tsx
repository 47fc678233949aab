import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import Router, { route, type RouterOnChangeArgs } from 'preact-router';
import { listDomains, type DomainSummary } from './api/admin.js';
import { rooted, whenCsrfRefused, whenSignedOut } from './api/client.js';
import { currentSession, sessionAgain, signOut, type Session } from './api/session.js';
import { clearDrafts } from './data/drafts.js';
import { DEFAULT_PERIOD_DAYS, lastDays, periodInQuery, withPeriod, type Period } from './data/period.js';
import { messageOf } from './components/async.js';
import { DomainPicker } from './components/domain-picker.js';
import { NoDomain } from './components/no-domain.js';
import { ConversationsPage } from './pages/conversations.js';
import { GapsPage } from './pages/gaps.js';
import { JobPage } from './pages/job.js';
import { JobsPage } from './pages/jobs.js';
import { NotFoundPage } from './pages/not-found.js';
import { OverviewPage } from './pages/overview.js';
import { SettingsPage } from './pages/settings.js';
import { SignInPage } from './pages/sign-in.js';
import { ThreadPage } from './pages/thread.js';

/**
 * The pages that report on one domain over a period, and the pages under them (a conversation's
 * thread): the domain picker and the period apply to these only. Jobs are per project, Settings per organisation.
 */
const REPORTS = ['/console/overview', '/console/conversations', '/console/gaps'].map(rooted);

/** A console URL's path, without its query or fragment. */
const pathOf = (url: string) => url.split(/[?#]/)[0] ?? url;
const isReport = (url: string) => REPORTS.some((r) => pathOf(url) === r || pathOf(url).startsWith(`${r}/`));

/** The navigation, in order. Every console path is under ROOT (a proxy's prefix). */
const NAV = [
  { href: rooted('/console/overview'), label: 'Overview' },
  { href: rooted('/console/conversations'), label: 'Conversations' },
  { href: rooted('/console/gaps'), label: 'Gaps' },
  { href: rooted('/console/jobs'), label: 'Jobs' },
  { href: rooted('/console/settings'), label: 'Settings' },
];

type SessionState = { state: 'checking' } | { state: 'signed-out'; notice?: string } | { state: 'signed-in'; session: Session } | { state: 'failed'; error: string };

/** The console: sign-in until a session exists, then the shell with its pages. */
export function App() {
  const [session, setSession] = useState<SessionState>({ state: 'checking' });
  const ended = () => setSession({ state: 'signed-out', notice: 'Your session has ended. Sign in again.' });

  useEffect(() => {
    whenSignedOut(ended);
    currentSession().then(
      (s) => setSession(s ? { state: 'signed-in', session: s } : { state: 'signed-out' }),
      (err: unknown) => setSession({ state: 'failed', error: messageOf(err) }),
    );
  }, []);

  // Tabs share the cookie. After another tab signed in again, this one takes the new token when the
  // organisation is the same; else it starts over from the cookie (another organisation's console,
  // or sign-in), so it never shows one organisation's name over another's data. It checks when a
  // write is refused for its token, and when the person comes back to it (reads need no token).
  const orgId = session.state === 'signed-in' ? session.session.organisation.id : null;
  useEffect(() => {
    if (!orgId) return undefined;
    const rejoin = async () => {
      const now = await sessionAgain(orgId);
      if (now === 'other') location.reload();
      if (now === 'none') ended();
      return now === 'same';
    };
    whenCsrfRefused(rejoin);
    const onReturn = () => {
      if (document.visibilityState === 'visible') rejoin().catch(() => undefined);
    };
    document.addEventListener('visibilitychange', onReturn);
    return () => document.removeEventListener('visibilitychange', onReturn);
  }, [orgId]);

  if (session.state === 'checking') return <p role="status" class="boot">Loading the console…</p>;
  if (session.state === 'failed') return <p role="alert" class="boot error">{session.error}</p>;
  if (session.state === 'signed-out') return <SignInPage notice={session.notice} onSignedIn={(s) => setSession({ state: 'signed-in', session: s })} />;
  return (
    <Shell
      session={session.session}
      onSignOut={async () => {
        await signOut();
        clearDrafts();
        setSession({ state: 'signed-out', notice: 'You are signed out.' });
      }}
    />
  );
}

/** `/console` itself: the overview, without a second history entry. */
function Redirect({ to }: { path: string; to: string }) {
  useEffect(() => {
    route(to, true);
  }, [to]);
  return null;
}

function Shell({ session, onSignOut }: { session: Session; onSignOut: () => Promise<void> }) {
  const [url, setUrl] = useState(location.pathname);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const signOutNow = () => {
    setSignOutError(null);
    onSignOut().catch((err: unknown) => setSignOutError(`You are still signed in: signing out failed (${messageOf(err)}). Try again.`));
  };
  const [domains, setDomains] = useState<DomainSummary[] | null>(null);
  const [domain, setDomain] = useState('');
  const [domainError, setDomainError] = useState<string | null>(null);
  // One period for every report, named in the URL (`?from&to`) so a link or a reload keeps it.
  const [period, setPeriod] = useState(() => periodInQuery(location.search) ?? lastDays(DEFAULT_PERIOD_DAYS));
  const choosePeriod = (chosen: Period) => {
    setPeriod(chosen);
    history.replaceState(history.state, '', `${location.pathname}${withPeriod(location.search, chosen)}`);
  };

  const loadDomains = () =>
    listDomains().then(
      (list) => {
        setDomains(list);
        setDomainError(null);
        // The chosen domain stays while it exists; one deleted in Settings gives way to the first.
        setDomain((d) => (list.some((x) => x.id === d) ? d : list[0]?.id || ''));
      },
      (err: unknown) => setDomainError(messageOf(err)),
    );
  useEffect(() => void loadDomains(), []);

  // The picker reads the list again on leaving Settings, where domains are added and deleted, and on
  // every move while the list is missing (a server that was down at load may be back).
  const onRoute = (e: RouterOnChangeArgs) => {
    const settings = rooted('/console/settings');
    const leftSettings = e.previous?.startsWith(settings) && !e.url.startsWith(settings);
    if (e.previous && (leftSettings || domains === null)) void loadDomains();
    // A report's URL that names a period (a link, Back) sets it; one that names none gets the period chosen so far.
    if (isReport(e.url)) {
      const named = periodInQuery(location.search);
      if (named) setPeriod(named);
      else history.replaceState(history.state, '', `${location.pathname}${withPeriod(location.search, period)}`);
    }
    setUrl(e.url);
  };

  /** A report of the chosen domain; without one, a page saying why, rather than a report on domain '' claiming it is empty. */
  const report = (title: string, page: VNode<{ path: string }>) => (domain ? page : <NoDomain path={page.props.path} title={title} listed={domains !== null} />);

  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Quire console</span>
        <span class="org" aria-label="Organisation">
          {session.organisation.name || session.organisation.id}
        </span>
        {domains && isReport(url) ? <DomainPicker domains={domains} value={domain} onChange={setDomain} /> : null}
        <button type="button" class="link-button" onClick={signOutNow}>
          Sign out
        </button>
      </header>
      <nav class="side" aria-label="Console">
        <ul>
          {NAV.map((item) => (
            <li key={item.href}>
              <a href={REPORTS.includes(item.href) ? `${item.href}${withPeriod('', period)}` : item.href} aria-current={pathOf(url).startsWith(item.href) ? 'page' : undefined}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" tabIndex={-1}>
        {signOutError ? <p role="alert" class="error">{signOutError}</p> : null}
        {domainError ? (
          <div class="load-error">
            <p role="alert" class="error">
              Your domains could not be read: {domainError}
            </p>
            <button type="button" class="secondary" onClick={() => void loadDomains()}>
              Retry
            </button>
          </div>
        ) : null}
        {/* Until the list is in, a report would say it could not be read. */}
        {domains === null && !domainError ? (
          <p class="loading" aria-busy="true">
            Loading your domains…
          </p>
        ) : (
        <Router onChange={onRoute}>
          {report('Overview', <OverviewPage path={rooted('/console/overview')} domain={domain} period={period} onPeriodChange={choosePeriod} />)}
          {report('Conversations', <ConversationsPage path={rooted('/console/conversations')} domain={domain} period={period} onPeriodChange={choosePeriod} />)}
          {report('Thread', <ThreadPage path={rooted('/console/conversations/:threadId')} domain={domain} site={domains?.find((d) => d.id === domain)?.baseUrl} />)}
          {report('Gaps', <GapsPage path={rooted('/console/gaps')} domain={domain} period={period} onPeriodChange={choosePeriod} />)}
          <JobsPage path={rooted('/console/jobs')} />
          <JobPage path={rooted('/console/jobs/:projectId/:jobId')} />
          <SettingsPage path={rooted('/console/settings/:rest*')} />
          {/* Only the console's own URLs: a link elsewhere (a pull request page) is left to the browser. */}
          <NotFoundPage path={rooted('/console/:rest+')} />
          <Redirect path={rooted('/console')} to={rooted('/console/overview')} />
        </Router>
        )}
      </main>
    </div>
  );
}
