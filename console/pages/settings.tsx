import { Page } from '../components/page.js';

/**
 * SETTINGS: a placeholder route and nav entry, to be filled in by the
 * console-server work: domains with allowed origins, indexing status, keys,
 * projects, webhooks, automations, and the widget snippet of a domain.
 */
export function SettingsPage(_: { path?: string; rest?: string }) {
  return (
    <Page title="Settings">
      <p>Domains, keys, projects, webhooks and automations will be managed here.</p>
    </Page>
  );
}
