import fs from 'node:fs/promises';
import * as v from 'valibot';

/** A file of recorded figures: one entry per question set, checked by `schema` on reading. */
export type FigureSchema<T> = v.GenericSchema<unknown, T>;

/** The recorded figures of every set; none when the file does not exist yet. */
export async function readFigureFile<T>(file: string, schema: FigureSchema<T>): Promise<Record<string, T>> {
  try {
    return v.parse(v.record(v.string(), schema), JSON.parse(await fs.readFile(file, 'utf8')));
  } catch (err) {
    if (err instanceof Error && 'code' in err && err.code === 'ENOENT') return {};
    throw err;
  }
}

/** Replaces the figures of the sets given, keeping the others, sorted by set name so diffs stay small. */
export async function writeFigureFile<T>(file: string, schema: FigureSchema<T>, sets: Record<string, T>): Promise<void> {
  const all = { ...(await readFigureFile(file, schema)), ...sets };
  const sorted = Object.fromEntries(Object.keys(all).sort().map((k) => [k, all[k]!]));
  await fs.writeFile(file, `${JSON.stringify(sorted, null, 2)}\n`);
}
