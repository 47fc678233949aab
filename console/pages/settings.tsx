import { rooted } from '../api/client.js';
import { Page } from '../components/page.js';
import { AutomationsSection, WebhooksSection } from './settings/automations.js';
import { DomainsSection } from './settings/domains.js';
import { KeysSection } from './settings/keys.js';
import { ProjectsSection } from './settings/projects.js';
import './settings/settings.css';

/** The parts of Settings, each at its own address (`/console/settings/keys`). */
const SECTIONS = [
  { slug: 'domains', label: 'Domains', Section: DomainsSection },
  { slug: 'keys', label: 'Keys', Section: KeysSection },
  { slug: 'projects', label: 'Projects', Section: ProjectsSection },
  { slug: 'automations', label: 'Automations', Section: AutomationsSection },
  { slug: 'webhooks', label: 'Webhooks', Section: WebhooksSection },
] as const;

/**
 * SETTINGS: domains with their allowed origins, indexing and widget tag; keys;
 * projects; automations; webhooks. Every form is checked by the API's own
 * schemas, and what it refuses shows beside the field it names.
 */
export function SettingsPage({ rest = '' }: { path?: string; rest?: string }) {
  const current = SECTIONS.find((s) => s.slug === rest.split('/')[0]) ?? SECTIONS[0];
  const { Section } = current;
  return (
    <Page title={`Settings: ${current.label}`}>
      <nav class="tabs" aria-label="Settings">
        <ul>
          {SECTIONS.map((s) => (
            <li key={s.slug}>
              <a href={rooted(`/console/settings/${s.slug}`)} aria-current={s === current ? 'page' : undefined}>
                {s.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <Section key={current.slug} />
    </Page>
  );
}
