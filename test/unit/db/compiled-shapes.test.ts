import assert from 'node:assert/strict';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { compiledShapes } from '../../../core/db/index.js';

interface Tables {
  t: { a: string; b: string; c: number };
}

// Compiling never opens a connection: neither factory is called.
const dialects = {
  sqlite: new Kysely<Tables>({ dialect: new SqliteDialect({ database: () => Promise.reject(new Error('no connection in this test')) }) }),
  postgres: new Kysely<Tables>({ dialect: new PostgresDialect({ pool: () => Promise.reject(new Error('no connection in this test')) }) }),
};

describe('statements compiled once per shape', () => {
  for (const [name, db] of Object.entries(dialects)) {
    it(`${name}: each call's values land in the parameters the compiler ordered, whatever that order`, () => {
      let built = 0;
      // The update's value comes before the where's in the SQL, though it is numbered after it.
      const update = compiledShapes((ids: number, slot) => {
        built++;
        return db
          .updateTable('t')
          .set({ b: slot(ids) })
          .where('a', 'in', Array.from({ length: ids }, (_, i) => slot(i)));
      });
      const first = update(2, ['x', 'y', 'new b']);
      assert.deepEqual(first.parameters, ['new b', 'x', 'y']);
      assert.match(first.sql, /update "t" set "b" = (\?|\$1) where "a" in/);
      const second = update(2, ['p', 'q', 'other b']);
      assert.deepEqual(second.parameters, ['other b', 'p', 'q']);
      assert.equal(second.sql, first.sql);
      assert.equal(built, 1, 'one build for the shape');
      assert.deepEqual(update(3, ['p', 'q', 'r', 'b']).parameters, ['b', 'p', 'q', 'r']);
      assert.equal(built, 2, 'a new shape is built once more');
    });
  }

  it('refuses a statement with a value that is not a slot', () => {
    const db = dialects.sqlite;
    const insert = compiledShapes((_rows: number, slot) => db.insertInto('t').values({ a: slot(0), b: 'literal', c: 1 }));
    assert.throws(() => insert(1, ['x']), /not a slot/);
  });
});
