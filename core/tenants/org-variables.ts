/**
 * Variables an organisation names (a project's forge token, a webhook's signing secret) are read
 * from the worker's environment, and a domain's push-hook secret from the API's; on a shared
 * service each holds every organisation's. With
 * QUIRE_ORG_SCOPED_VARIABLES an organisation's admin may name only its own: those starting with
 * its id in capitals (`ACME_DOCS_` for `acme-docs`), so no one can have the worker sign with, or
 * send, another organisation's secret. The operator (CLI, seed file) names any variable.
 */
export function orgVariablePrefix(orgId: string): string {
  return `${orgId.toUpperCase().replace(/-/g, '_')}_`;
}

/**
 * Why the organisation may not name the variable, or undefined when it may. `orgIds` are the
 * organisations there are: a name with the prefix of one whose id begins with this one's
 * (`ACME_DOCS_TOKEN`, `acme-docs`'s, for `acme`) is that one's, not this one's.
 */
export function orgVariableProblem(orgId: string, name: string, orgIds: readonly string[]): string | undefined {
  const prefix = orgVariablePrefix(orgId);
  const theirs = orgIds.some((other) => orgVariablePrefix(other).length > prefix.length && name.startsWith(orgVariablePrefix(other)));
  return name.startsWith(prefix) && name.length > prefix.length && !theirs
    ? undefined
    : `must be one of this organisation's variables, whose names start with ${prefix} and not with the prefix of another organisation whose id begins with ${orgId}- (QUIRE_ORG_SCOPED_VARIABLES)`;
}
