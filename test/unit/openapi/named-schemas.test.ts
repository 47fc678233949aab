import assert from 'node:assert/strict';
import type * as v from 'valibot';
import { components } from '../../../api/openapi/components.js';
import { openApiDocument } from '../../../api/openapi/document.js';
import { JSON_SCHEMAS, OPERATIONS, SCHEMAS } from '../../../api/openapi/paths/index.js';

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

/** Where each object shape of more than one property is written out in `node` (its own description aside), by shape. */
function shapesIn(node: unknown, place: string, found: Map<string, string[]>): void {
  if (Array.isArray(node)) node.forEach((item, i) => shapesIn(item, `${place}/${i}`, found));
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const { description: _, ...shape } = node as Record<string, unknown>;
  const properties = shape.properties;
  if (typeof properties === 'object' && properties !== null && Object.keys(properties).length > 1) {
    const key = JSON.stringify(shape);
    found.set(key, [...(found.get(key) ?? []), place]);
  }
  for (const [key, value] of Object.entries(node)) shapesIn(value, `${place}/${key}`, found);
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

  // What the test above cannot see: a helper that builds a new object per call, or JSON Schema written by hand.
  it('leave no object shape written out twice in the served document', () => {
    const doc = openApiDocument('http://localhost') as { paths: unknown; components: unknown };
    const found = new Map<string, string[]>();
    shapesIn(doc.paths, '#/paths', found);
    shapesIn(doc.components, '#/components', found);
    // The shape inside one written twice is reported with it: the outermost is the one to name.
    const twice = [...found.values()].filter((places) => places.length > 1);
    const outermost = twice.filter((places) => !twice.some((other) => other !== places && places.every((p) => other.some((o) => p.startsWith(`${o}/`)))));
    assert.deepEqual(outermost, [], 'name each of these once (a constant in its feature’s NamedSchemas, or NamedJsonSchemas for JSON Schema written by hand)');
  });

  it('give no two named schemas the same name', () => {
    const names = [...Object.keys(components.schemas ?? {}), ...Object.keys(JSON_SCHEMAS), ...Object.keys(SCHEMAS)];
    assert.deepEqual(names.filter((name, i) => names.indexOf(name) !== i), []);
  });
});
