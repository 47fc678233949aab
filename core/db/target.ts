import path from 'node:path';

/** Where the system of record lives: one SQLite file (the embedded default) or a PostgreSQL database. */
export type DatabaseTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

/** The database `QUIRE_DATABASE_URL` names, or the embedded file in the data directory when it is unset. */
export function databaseTarget(url: string | undefined, dataDir: string): DatabaseTarget {
  return url ? { dialect: 'postgres', url } : { dialect: 'sqlite', file: path.join(dataDir, 'quire.db') };
}

/** The database as an operator names it: the SQLite file, or the PostgreSQL URL without its credentials (QUIRE_DATABASE_URL). */
export function describeTarget(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return target.file;
  const url = URL.canParse(target.url) ? new URL(target.url) : undefined;
  return url ? `${url.protocol}//${url.host}${url.pathname} (QUIRE_DATABASE_URL)` : 'QUIRE_DATABASE_URL';
}
