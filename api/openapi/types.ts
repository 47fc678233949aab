/** The parts of an OpenAPI 3.1 document Quire builds; loose where the spec is open-ended. */
export type Schema = Record<string, unknown>;
export type Operation = Record<string, unknown>;
/** Path template (`/v2/agent/{projectId}/job`) → lower-case method → operation. */
export type PathItems = Record<string, Record<string, Operation>>;
