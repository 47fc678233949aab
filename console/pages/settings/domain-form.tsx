import { useState } from 'preact/hooks';
import { domains, type Domain, type DomainLanguage } from '../../api/settings.js';
import { domainPatch, newDomainBody } from '../../data/domain-form.js';
import { Field, FormError, formValues, TextField, useSubmission, type Submission } from './form.js';

/** The fields of both forms, by the API's names: a refusal about any of them shows beside it. */
const FIELDS = ['source', 'baseUrl', 'branch', 'docsPath', 'includeHidden', 'language', 'allowedOrigins', 'supportContact', 'pushSecretEnv', 'pollMinutes'];

const languageNames = new Intl.DisplayNames(['en'], { type: 'language' });

/** A language tag as a docs team reads it: `German (de)`, `Portuguese (Brazil) (pt-BR)`. */
function languageLabel(tag: string): string {
  try {
    return `${languageNames.of(tag) ?? tag} (${tag})`;
  } catch {
    return tag;
  }
}

/**
 * The language a domain's pages and questions are stemmed in: the API's languages, and the domain's
 * own tag when it names a region (`pt-BR`) the list does not. Empty is the API's default, English.
 */
function LanguageField({ id, value, languages, submission }: { id: string; value: string; languages: readonly DomainLanguage[]; submission: Submission }) {
  const tags = value && !(languages as readonly string[]).includes(value) ? [value, ...languages] : languages;
  return (
    <Field id={id} label="Language" error={submission.fieldError('language')} hint="The language of the docs, whose stemmer cuts the words of pages and questions. A change re-indexes the domain.">
      {(describedBy, invalid) => (
        <select id={id} name="language" aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined}>
          <option value="" selected={!value}>
            English (not set)
          </option>
          {tags.map((tag) => (
            <option key={tag} value={tag} selected={tag === value}>
              {languageLabel(tag)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** Whether every page file is indexed, whatever the navigation and the pages' frontmatter hide. */
function IncludeHiddenField({ id, checked, submission }: { id: string; checked: boolean; submission: Submission }) {
  return (
    <Field id={id} label="Index hidden pages" error={submission.fieldError('includeHidden')} hint="Index every page file, even those the navigation leaves out or the frontmatter hides. Read by the next index run.">
      {(describedBy, invalid) => <input id={id} name="includeHidden" type="checkbox" defaultChecked={checked} aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined} />}
    </Field>
  );
}

/**
 * A domain's settings: a new domain's (`domain` absent), which also takes the id it will keep, or
 * the settings of `domain`, sent as a change of its whole form. The fields are declared once here,
 * so adding a domain offers what editing one does.
 */
export function DomainForm({ domain, languages, onSaved }: { domain?: Domain; languages: readonly DomainLanguage[]; onSaved: (domain: Domain) => void }) {
  const submission = useSubmission(domain ? FIELDS : ['id', ...FIELDS]);
  const [saved, setSaved] = useState(false);
  const prefix = domain ? `domain-${domain.id}` : 'new-domain';
  const submit = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const values = formValues(form);
    setSaved(false);
    void submission.run(async () => {
      if (domain) {
        onSaved(await domains.update(domain.id, domainPatch(values, domain)));
        setSaved(true);
      } else {
        const created = await domains.create(newDomainBody(values));
        form.reset();
        onSaved(created);
      }
    });
  };
  const formLabel = domain ? { 'aria-label': `Settings of ${domain.id}` } : { 'aria-labelledby': 'new-domain-heading' };
  return (
    <form class={domain ? 'domain-form' : 'card'} onSubmit={submit} noValidate {...formLabel}>
      {domain ? null : (
        <>
          <h2 id="new-domain-heading">Add a domain</h2>
          <TextField id={`${prefix}-id`} name="id" label="Id" submission={submission} hint="Lower-case letters, digits and dashes; it cannot change." />
        </>
      )}
      <TextField
        id={`${prefix}-source`}
        name="source"
        label="Source"
        value={domain?.source}
        submission={submission}
        hint="Git URL of the docs (a folder on the server only where the operator allows it). Credentials shown as *** are kept. A change is read by the next index run."
      />
      <TextField id={`${prefix}-base-url`} name="baseUrl" label="Docs site URL" value={domain?.baseUrl} submission={submission} hint="Where the citations link to." />
      <TextField id={`${prefix}-branch`} name="branch" label="Branch" value={domain?.branch ?? ''} submission={submission} hint="The branch of the docs. Empty: the repository's default branch. A change is read by the next index run." />
      <TextField id={`${prefix}-docs-path`} name="docsPath" label="Docs folder" value={domain?.docsPath} submission={submission} hint="The folder of the docs in the repository. Empty: its root. A change is read by the next index run." />
      <IncludeHiddenField id={`${prefix}-include-hidden`} checked={domain?.includeHidden ?? false} submission={submission} />
      <LanguageField id={`${prefix}-language`} value={domain?.language ?? ''} languages={languages} submission={submission} />
      <TextField
        id={`${prefix}-origins`}
        name="allowedOrigins"
        label="Allowed origins"
        multiline
        value={(domain?.allowedOrigins ?? []).join('\n')}
        placeholder="https://docs.example.com"
        submission={submission}
        hint="One origin a line: only pages there may use the widget and the browser endpoints. Empty: any origin."
      />
      <TextField id={`${prefix}-support`} name="supportContact" label="Support contact" value={domain?.supportContact ?? ''} submission={submission} hint="Offered when the docs have no answer (optional)." />
      <TextField
        id={`${prefix}-push-secret-env`}
        name="pushSecretEnv"
        label="Push secret variable"
        value={domain?.pushSecretEnv ?? ''}
        placeholder="ACME_DOCS_PUSH_SECRET"
        submission={submission}
        hint="The name of the API's environment variable that holds the push hook's secret, never the secret itself. Empty: the domain takes no pushes."
      />
      <TextField
        id={`${prefix}-poll-minutes`}
        name="pollMinutes"
        label="Poll every (minutes)"
        value={domain?.pollMinutes === undefined ? '' : String(domain.pollMinutes)}
        placeholder="off"
        submission={submission}
        hint="For a repository whose pushes cannot reach the hook: every this many minutes (5 to 1440), Quire checks the branch and re-indexes when it has a new commit. Empty: not polled."
      />
      <FormError submission={submission} />
      <div class="actions">
        <button type="submit" disabled={submission.busy}>
          {domain ? (submission.busy ? 'Saving…' : 'Save') : 'Add the domain'}
        </button>
        {saved ? <span role="status">Saved.</span> : null}
      </div>
    </form>
  );
}
