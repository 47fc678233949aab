import type { Config } from '../config.js';
import type { Project } from '../tenants/types.js';

/** The model a job runs with, or the rule the requested one breaks. */
export type ModelChoice = { model: string } | { refused: string };

/**
 * The job's model: the requested one if the project allows it, else the
 * configured default. An empty list of allowed models means only the
 * configured model. With no model at all the job is still created and its
 * first turn fails with a clear reason (model_not_configured).
 */
export function jobModel(project: Project, config: Config, requested: string | undefined): ModelChoice {
  const configured = config.model?.name;
  const allowed = project.allowedModels.length > 0 ? project.allowedModels : configured ? [configured] : [];
  if (requested !== undefined) {
    if (allowed.includes(requested)) return { model: requested };
    return { refused: allowed.length > 0 ? `must be one of: ${allowed.join(', ')}` : 'no model is configured for this project' };
  }
  if (configured && allowed.includes(configured)) return { model: configured };
  return { model: allowed[0] ?? '' };
}
