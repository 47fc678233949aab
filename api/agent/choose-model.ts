import type { Config } from '../../core/config.js';
import type { Project } from '../../core/tenants/index.js';
import { badRequest } from '../http-error.js';

/**
 * The job's model: the requested one if the project allows it, else the
 * configured default. An empty list of allowed models means only the
 * configured model. With no model at all the job is still created and its
 * first turn fails with a clear reason (model_not_configured).
 */
export function chooseModel(project: Project, config: Config, requested: string | undefined): string {
  const configured = config.model?.name;
  const allowed = project.allowedModels.length > 0 ? project.allowedModels : configured ? [configured] : [];
  if (requested !== undefined) {
    if (allowed.includes(requested)) return requested;
    const rule = allowed.length > 0 ? `must be one of: ${allowed.join(', ')}` : 'no model is configured for this project';
    throw badRequest(`invalid body: model: ${rule}`, [{ path: 'model', message: rule }]);
  }
  if (configured && allowed.includes(configured)) return configured;
  return allowed[0] ?? '';
}
