import { ConflictError, NotFoundError } from '../errors.js';

/** 409: the project's delete has begun; it takes no new job, and its jobs take no message. */
export class ProjectDeletingError extends ConflictError {
  override name = 'ProjectDeletingError';
}

/** 404: the project was deleted (another process's tenant cache may still hold it). */
export class ProjectDeletedError extends NotFoundError {
  override name = 'ProjectDeletedError';
  constructor() {
    super('project');
  }
}

/** The job store's refusal of a project being deleted or deleted: no retry changes it. */
export function isClosedProject(err: unknown): err is ProjectDeletingError | ProjectDeletedError {
  return err instanceof ProjectDeletingError || err instanceof ProjectDeletedError;
}
