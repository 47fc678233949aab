import assert from 'node:assert/strict';
import type * as v from 'valibot';
import { OPERATIONS, SCHEMAS } from '../../../api/openapi/paths/index.js';

type Node = v.GenericSchema & { entries?: Record<string, Node>; wrapped?: Node; item?: Node; options?: Node[]; items?: Node[]; rest?: Node; pipe?: Node[] };

const OBJECTS = new Set(['object', 'loose_object', 'strict_object', 'object_with_rest']);
const names = new Map<unknown, string>(Object.entries(SCHEMAS).map(([name, schema]) => [schema, name]));

/** The object schemas written out in full at `place`: a named schema is a `$ref` there, and not entered (but for its own component). */
function objectsIn(schema: Node, place: string, found: Map<Node, Set<string>>, component?: string): void {
  if (names.has(schema) && names.get(schema) !== component) return;
  if (OBJECTS.has(schema.type)) found.set(schema, (found.get(schema) ?? new Set()).add(place));
  const children = [...Object.values(schema.entries ?? {}), schema.wrapped, schema.item, schema.rest, ...(schema.options ?? []), ...(schema.items ?? []), ...(schema.pipe ?? [])];
  for (const child of children) if (child && (child as { kind?: string }).kind === 'schema') objectsIn(child, place, found);
}

describe('the named schemas of the OpenAPI document', () => {
  // An object two bodies share, not named, is written out in full in each (and typed again in the console's openapi.gen.ts).
  it('name every object schema that more than one body or component uses', () => {
    const found = new Map<Node, Set<string>>();
    for (const spec of OPERATIONS) {
      if (spec.body) objectsIn(spec.body as Node, `${spec.operationId} request`, found);
      for (const [status, response] of Object.entries(spec.responses)) if (response.body) objectsIn(response.body as Node, `${spec.operationId} ${status}`, found);
    }
    for (const [name, schema] of Object.entries(SCHEMAS)) objectsIn(schema as Node, name, found, name);
    const shared = [...found].filter(([, places]) => places.size > 1).map(([schema, places]) => `${Object.keys(schema.entries ?? {}).join(', ')}: ${[...places].join('; ')}`);
    assert.deepEqual(shared, [], 'name these in their feature’s operations.ts');
  });
});
