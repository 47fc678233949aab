/**
 * Variables an organisation names (a project's forge token, a webhook's signing secret) are read
 * from the worker's environment, which on a shared service holds every organisation's. With
 * QUIRE_ORG_SCOPED_VARIABLES an organisation's admin may name only its own: those starting with
 * its id in capitals (`ACME_DOCS_` for `acme-docs`), so no one can have the worker sign with, or
 * send, another organisation's secret. The operator (CLI, seed file) names any variable.
 */
export function orgVariablePrefix(orgId: string): string {
  return `${orgId.toUpperCase().replace(/-/g, '_')}_`;
}

/** Why the organisation may not name the variable, or undefined when it may. */
export function orgVariableProblem(orgId: string, name: string): string | undefined {
  const prefix = orgVariablePrefix(orgId);
  return name.startsWith(prefix) && name.length > prefix.length
    ? undefined
    : `must be one of this organisation's variables on the worker, whose names start with ${prefix} (QUIRE_ORG_SCOPED_VARIABLES)`;
}
