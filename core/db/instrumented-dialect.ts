import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult, TransactionSettings } from 'kysely';
import { classifyDatabaseError } from './errors.js';

/** The kind of a statement, a bounded label: never its SQL text. */
export type QueryOperation = 'select' | 'insert' | 'update' | 'delete' | 'other';

/** Called after every statement with its kind and duration: the database's metrics hook in here. */
export type QueryObserver = (operation: QueryOperation, seconds: number, failed: boolean) => void;

const OPERATIONS: Record<string, QueryOperation> = {
  SelectQueryNode: 'select',
  InsertQueryNode: 'insert',
  UpdateQueryNode: 'update',
  DeleteQueryNode: 'delete',
};

function instrumentedConnection(inner: DatabaseConnection, observe: QueryObserver): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const started = performance.now();
      const operation = OPERATIONS[query.query.kind] ?? 'other';
      try {
        const result = await inner.executeQuery<R>(query);
        observe(operation, (performance.now() - started) / 1000, false);
        return result;
      } catch (err) {
        observe(operation, (performance.now() - started) / 1000, true);
        throw classifyDatabaseError(err);
      }
    },
    streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
  };
}

/**
 * Wraps a dialect's driver so every statement, whichever repository runs it, is timed and its
 * errors classified (DatabaseUnavailableError) in one place.
 */
export function instrumentedDialect(inner: Dialect, observe: QueryObserver): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver(): Driver {
      const driver = inner.createDriver();
      const wrapped = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const outer = (connection: DatabaseConnection) => {
        let o = wrapped.get(connection);
        if (!o) wrapped.set(connection, (o = instrumentedConnection(connection, observe)));
        return o;
      };
      const inners = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const unwrap = (connection: DatabaseConnection) => inners.get(connection) ?? connection;
      const guard = async <T>(run: () => Promise<T>): Promise<T> => {
        try {
          return await run();
        } catch (err) {
          throw classifyDatabaseError(err);
        }
      };
      return {
        init: () => guard(() => driver.init()),
        async acquireConnection() {
          const connection = await guard(() => driver.acquireConnection());
          const o = outer(connection);
          inners.set(o, connection);
          return o;
        },
        beginTransaction: (c, settings: TransactionSettings) => guard(() => driver.beginTransaction(unwrap(c), settings)),
        commitTransaction: (c) => guard(() => driver.commitTransaction(unwrap(c))),
        rollbackTransaction: (c) => guard(() => driver.rollbackTransaction(unwrap(c))),
        releaseConnection: (c) => driver.releaseConnection(unwrap(c)),
        destroy: () => driver.destroy(),
      };
    },
  };
}
