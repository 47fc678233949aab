import type { WritableDocIndex } from './indexed.js';

/**
 * The same index, each `dropDomain` announced once it is done (`announce`), so that every other
 * process forgets the domain's index it keeps in memory; the rest is the index's own.
 */
export function announcedDrops<T extends WritableDocIndex>(index: T, announce: (domainId: string) => Promise<void>): T {
  const dropDomain: WritableDocIndex['dropDomain'] = async (domainId) => {
    await index.dropDomain(domainId);
    await announce(domainId);
  };
  return new Proxy(index, {
    get: (target, name) => {
      if (name === 'dropDomain') return dropDomain;
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
