import { Page } from '../components/page.js';

export function NotFoundPage(_: { path?: string; rest?: string }) {
  return (
    <Page title="Page not found">
      <p>
        There is no console page here. <a href="/console/overview">Go to the overview</a>.
      </p>
    </Page>
  );
}
