import { apiUrl } from '../../api/client.js';
import type { Domain } from '../../api/settings.js';
import { CopyButton } from './form.js';

/**
 * How a docs team connects its repository's pushes to the domain: the hook's URL, the variable that
 * holds its secret (the name only: the console never sees the secret), and what goes where at each forge.
 */
export function PushHook({ domain }: { domain: Domain }) {
  const url = apiUrl(`/v2/hooks/domains/${encodeURIComponent(domain.id)}/push`);
  const prefix = `push-${domain.id}`;
  return (
    <section class="snippet push-hook" aria-labelledby={`${prefix}-heading`}>
      <h3 id={`${prefix}-heading`}>Re-index on push</h3>
      <p class="hint">
        Add a push webhook to the docs repository with this URL: a push to {domain.branch ? <code>{domain.branch}</code> : "the repository's default branch"} re-indexes {domain.id}.
      </p>
      <pre>
        <code id={`${prefix}-url`}>{url}</code>
      </pre>
      <CopyButton text={url} label="Copy the hook URL" />
      <dl class="facts">
        <dt>Secret</dt>
        <dd id={`${prefix}-secret`} data-configured={domain.pushSecretEnv ? 'true' : 'false'}>
          {domain.pushSecretEnv ? (
            <>
              In the API's variable <code>{domain.pushSecretEnv}</code>: give the forge the same secret.
            </>
          ) : (
            'None yet: the hook answers 404 until the domain names the variable holding its secret (Push secret variable, above) and the API has that variable.'
          )}
        </dd>
      </dl>
      <ul class="forges" aria-label={`Forges that can call the hook of ${domain.id}`}>
        <li>
          <strong>GitHub</strong>: Settings, Webhooks, Add webhook. Payload URL: the URL above; Content type: <code>application/json</code>; Secret: the secret; the push event.
        </li>
        <li>
          <strong>GitLab</strong>: Settings, Webhooks, Add new webhook. URL: the URL above; Secret token: the secret; trigger: Push events.
        </li>
        <li>
          <strong>Anything else</strong> (a CI job): POST <code>{`{"ref": "refs/heads/${domain.branch ?? 'main'}"}`}</code> to the URL with <code>Authorization: Bearer</code> and the secret
          {domain.branch ? '' : "; it needs the domain's branch set"}.
        </li>
      </ul>
    </section>
  );
}
