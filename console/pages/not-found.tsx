import { rooted } from '../api/client.js';
import { Page } from '../components/page.js';

export function NotFoundPage(_: { path?: string; rest?: string }) {
  return (
    <Page title="Page not found">
      <p>
        There is no console page here. <a href={rooted('/console/overview')}>Go to the overview</a>.
      </p>
    </Page>
  );
}
