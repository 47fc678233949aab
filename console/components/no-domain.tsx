import { rooted } from '../api/client.js';
import { Page } from './page.js';

/**
 * A report's page while there is no domain to report on: none exists yet, or the list could not be
 * read (the shell says so, with Retry). Saying that, not "no data", is what keeps a page from
 * claiming an empty report it never read.
 */
export function NoDomain({ title, listed }: { path: string; title: string; listed: boolean }) {
  return (
    <Page title={title}>
      {listed ? (
        <p class="empty">
          No domain yet: <a href={rooted('/console/settings/domains')}>add one in Settings</a> to see its reports.
        </p>
      ) : (
        <p class="empty">This report needs your list of domains, which could not be read.</p>
      )}
    </Page>
  );
}
