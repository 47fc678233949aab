import path from 'node:path';

/** Where the system of record lives: one SQLite file (the embedded default) or a PostgreSQL database. */
export type DatabaseTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgres'; url: string };

/** The database `QUIRE_DATABASE_URL` names, or the embedded file in the data directory when it is unset. */
export function databaseTarget(url: string | undefined, dataDir: string): DatabaseTarget {
  return url ? { dialect: 'postgres', url } : { dialect: 'sqlite', file: path.join(dataDir, 'quire.db') };
}

/** The target for an operator to read (a log line, a start-up error): never the URL's user or password. */
export function describeTarget(target: DatabaseTarget): string {
  if (target.dialect === 'sqlite') return `SQLite file ${target.file}`;
  try {
    const url = new URL(target.url);
    return `PostgreSQL at ${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'PostgreSQL at QUIRE_DATABASE_URL (not a URL)';
  }
}
