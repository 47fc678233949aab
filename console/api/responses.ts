import type { components, operations } from './openapi.gen.js';

/**
 * The API's shapes as the console reads them, named by the operation that answers them: taken from
 * the types generated from the OpenAPI document (openapi.gen.ts, `npm run openapi:types`), so the
 * console is typed against the API's own schemas and a change there shows here when regenerated.
 */

type Operation = keyof operations;

/** The JSON body `op` answers with `status` (200 unless named). */
export type ResponseOf<Op extends Operation, Status extends keyof operations[Op]['responses'] = 200 & keyof operations[Op]['responses']> = operations[Op]['responses'][Status] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

/** The JSON body `op` takes. */
export type RequestOf<Op extends Operation> = NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer Body } } ? Body : never;

/** A schema the document names (`#/components/schemas/…`): a shape no JSON body carries, such as a stream's event. */
export type SchemaOf<Name extends keyof components['schemas']> = components['schemas'][Name];
