import type { Config } from '../../core/config.js';
import { ModelNotConfiguredError } from '../../core/errors.js';
import { jobModel } from '../../core/jobs/index.js';
import type { Project } from '../../core/tenants/index.js';
import { badRequest } from '../http-error.js';

/** Refuses at the door an agent job that cannot run: 503 `model_not_configured` when no model is configured. */
export function requireModel(config: Config): void {
  if (!config.model) throw new ModelNotConfiguredError();
}

/** The job's model for a new job: 503 when no model is configured, else as `allowedModel`. */
export function chooseModel(project: Project, config: Config, requested: string | undefined): string {
  requireModel(config);
  return allowedModel(project, config, requested);
}

/** The model a job would run with (core/jobs `jobModel`), or 400 naming `model` when the project does not allow the one requested. */
export function allowedModel(project: Project, config: Config, requested: string | undefined): string {
  const choice = jobModel(project, config, requested);
  if ('model' in choice) return choice.model;
  throw badRequest(`invalid body: model: ${choice.refused}`, [{ path: 'model', message: choice.refused }]);
}
