import { useState } from 'preact/hooks';
import { projects, type Project } from '../../api/settings.js';
import { Show, useLoad } from '../../components/async.js';
import { Field, FormError, formValues, lines, TextField, useSubmission } from './form.js';

const FORGES = ['local', 'github', 'gitlab'] as const;

/** Projects: the repositories the agent works on, their branch, folder and forge. */
export function ProjectsSection() {
  const [loaded, reload] = useLoad(() => projects.list(), []);
  return (
    <>
      <Show loaded={loaded}>
        {(list) =>
          list.length === 0 ? (
            <p class="empty">No project yet. Add one below.</p>
          ) : (
            <ul class="list">
              {list.map((p) => (
                <ProjectCard key={p.id} project={p} />
              ))}
            </ul>
          )
        }
      </Show>
      <NewProject onCreated={reload} />
    </>
  );
}

function ForgeField({ id, value, error }: { id: string; value?: string; error: string | undefined }) {
  return (
    <Field id={id} label="Forge" error={error} hint="Where pull requests open: the built-in local forge, GitHub or GitLab.">
      {(describedBy, invalid) => (
        <select id={id} name="forge" aria-describedby={describedBy} aria-invalid={invalid ? 'true' : undefined}>
          {FORGES.map((f) => (
            <option key={f} value={f} selected={f === (value ?? 'local')}>
              {f}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function ProjectCard({ project: loaded }: { project: Project }) {
  const [project, setProject] = useState(loaded);
  const [saved, setSaved] = useState(false);
  const submission = useSubmission(['repository', 'branch', 'docsPath', 'forge', 'forgeTokenEnv', 'allowedModels']);
  const prefix = `project-${project.id}`;
  const save = (e: Event) => {
    e.preventDefault();
    const values = formValues(e.currentTarget as HTMLFormElement);
    setSaved(false);
    void submission.run(async () => {
      setProject(
        await projects.update(project.id, {
          repository: values.repository ?? '',
          branch: values.branch ?? '',
          docsPath: values.docsPath ?? '',
          forge: values.forge,
          forgeTokenEnv: values.forgeTokenEnv ?? null,
          allowedModels: lines(values.allowedModels),
        }),
      );
      setSaved(true);
    });
  };
  return (
    <li class="card">
      <form onSubmit={save} noValidate aria-labelledby={`${prefix}-title`}>
        <h2 id={`${prefix}-title`}>{project.id}</h2>
        <TextField id={`${prefix}-repository`} name="repository" label="Repository" value={project.repository} submission={submission} hint="Clone URL of the docs repository (a folder on the server only where the operator allows it)." />
        <TextField id={`${prefix}-branch`} name="branch" label="Branch" value={project.branch} submission={submission} />
        <TextField id={`${prefix}-path`} name="docsPath" label="Docs folder" value={project.docsPath} submission={submission} hint="Empty: the repository's root." />
        <ForgeField id={`${prefix}-forge`} value={project.forge} error={submission.fieldError('forge')} />
        <TextField id={`${prefix}-token`} name="forgeTokenEnv" label="Forge token variable" value={project.forgeTokenEnv ?? ''} submission={submission} hint="The name of the worker's variable holding the forge token (never the token)." />
        <TextField id={`${prefix}-models`} name="allowedModels" label="Allowed models" multiline value={project.allowedModels.join('\n')} submission={submission} hint="One a line; empty: the configured model only." />
        <FormError submission={submission} />
        <div class="actions">
          <button type="submit" disabled={submission.busy}>
            Save
          </button>
          {saved ? <span role="status">Saved.</span> : null}
        </div>
      </form>
    </li>
  );
}

function NewProject({ onCreated }: { onCreated: () => void }) {
  const submission = useSubmission(['id', 'repository', 'branch', 'docsPath', 'forge', 'forgeTokenEnv', 'allowedModels']);
  const create = (e: Event) => {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const { allowedModels, ...values } = formValues(form);
    void submission.run(async () => {
      await projects.create({ ...values, ...(allowedModels ? { allowedModels: lines(allowedModels) } : {}) });
      form.reset();
      onCreated();
    });
  };
  return (
    <form class="card" onSubmit={create} noValidate aria-labelledby="new-project-heading">
      <h2 id="new-project-heading">Add a project</h2>
      <TextField id="new-project-id" name="id" label="Id" submission={submission} hint="Lower-case letters, digits and dashes." />
      <TextField id="new-project-repository" name="repository" label="Repository" submission={submission} />
      <TextField id="new-project-branch" name="branch" label="Branch" submission={submission} hint="Optional: main when empty." />
      <TextField id="new-project-path" name="docsPath" label="Docs folder" submission={submission} hint="Optional." />
      <ForgeField id="new-project-forge" error={submission.fieldError('forge')} />
      <TextField id="new-project-token" name="forgeTokenEnv" label="Forge token variable" submission={submission} hint="Required with GitHub and GitLab: the name of the worker's variable holding the token (never the token)." />
      <TextField id="new-project-models" name="allowedModels" label="Allowed models" multiline submission={submission} hint="Optional, one a line; empty: the configured model only." />
      <FormError submission={submission} />
      <button type="submit" disabled={submission.busy}>
        Add the project
      </button>
    </form>
  );
}
