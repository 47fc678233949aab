import type { Config } from '../../core/config.js';
import { jobModel } from '../../core/jobs/index.js';
import type { Project } from '../../core/tenants/index.js';
import { badRequest } from '../http-error.js';

/** The job's model (core/jobs `jobModel`), or 400 naming `model` when the project does not allow the one requested. */
export function chooseModel(project: Project, config: Config, requested: string | undefined): string {
  const choice = jobModel(project, config, requested);
  if ('model' in choice) return choice.model;
  throw badRequest(`invalid body: model: ${choice.refused}`, [{ path: 'model', message: choice.refused }]);
}
