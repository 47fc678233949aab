import type { Kysely } from 'kysely';

export type Dialect = 'sqlite' | 'postgres';

/**
 * One step of the schema. Migrations run in the order of `MIGRATIONS`, each once, in a
 * transaction; a step never changes after it has shipped: a change is a new step.
 */
export interface QuireMigration {
  /** `NNN-what-it-adds`: the order and the record Kysely keeps of what ran. */
  name: string;
  // The schema builder is untyped here on purpose: a migration describes tables, it does not query them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Column types that differ by dialect; everything else uses the builder's common names. */
export function columnTypes(dialect: Dialect) {
  return {
    /** Epoch milliseconds: wider than 32 bits. */
    millis: 'bigint' as const,
    bytes: dialect === 'postgres' ? ('bytea' as const) : ('blob' as const),
  };
}
