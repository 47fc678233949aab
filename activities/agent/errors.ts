/**
 * Error types the agent activities throw as ApplicationFailure types. The workflow passes
 * AGENT_NON_RETRYABLE as nonRetryableErrorTypes; everything else is retried by Temporal.
 */
export const AGENT_ERROR = {
  repositoryNotFound: 'RepositoryNotFound',
  badCredentials: 'BadCredentials',
  modelRequestInvalid: 'ModelRequestInvalid',
  modelNotConfigured: 'ModelNotConfigured',
  projectNotFound: 'ProjectNotFound',
  forgeUnsupported: 'ForgeUnsupported',
  modelUnavailable: 'ModelUnavailable',
  forgeUnavailable: 'ForgeUnavailable',
  gitFailed: 'GitFailed',
} as const;

export const AGENT_NON_RETRYABLE: readonly string[] = [
  AGENT_ERROR.repositoryNotFound,
  AGENT_ERROR.badCredentials,
  AGENT_ERROR.modelRequestInvalid,
  AGENT_ERROR.modelNotConfigured,
  AGENT_ERROR.projectNotFound,
  AGENT_ERROR.forgeUnsupported,
];
