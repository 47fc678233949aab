import type { Compilable, CompiledQuery } from 'kysely';

const SLOT = '\u0000quire-slot:';

/** Stands in for the `i`-th value while a statement is compiled: the compiled parameters name their slots. */
export type Slot = (i: number) => string;
const slot: Slot = (i) => `${SLOT}${i}`;

/** Distinct shapes kept per statement: a batch's row counts, which a busy process repeats. */
const SHAPES = 64;

/**
 * A statement built and compiled by Kysely once per shape (its number of rows, or of values in an
 * `in` list), then run with each call's values. `build` writes the statement for a shape with
 * `slot(i)` in place of the `i`-th value; a call passes the values in the same numbering, so the
 * parameters follow whatever order the compiler put them in. Building and compiling a statement per
 * call cost the completion sink's thread writes about as much CPU as SQLite's own work.
 */
export function compiledShapes<Shape extends string | number>(build: (shape: Shape, slot: Slot) => Compilable<unknown>): (shape: Shape, values: readonly unknown[]) => CompiledQuery {
  const compiled = new Map<Shape, { query: CompiledQuery; slots: number[] }>();
  return (shape, values) => {
    let entry = compiled.get(shape);
    if (!entry) {
      const query = build(shape, slot).compile();
      const slots = query.parameters.map((p) => {
        if (typeof p !== 'string' || !p.startsWith(SLOT)) throw new Error('a compiled shape has a parameter that is not a slot');
        return Number(p.slice(SLOT.length));
      });
      entry = { query, slots };
      if (compiled.size < SHAPES) compiled.set(shape, entry);
    }
    const { slots } = entry;
    return { ...entry.query, parameters: slots.map((i) => values[i]) };
  };
}
