import type { QueryDefinition, SignalDefinition, UpdateDefinition } from '@temporalio/common';

// The same plain objects `@temporalio/workflow`'s define* functions return (the type brands on
// the definitions exist only at compile time). Defined here so a contract never loads the
// workflow package: the API and the CLI import contracts in plain Node.

/** An update a workflow handles and a client sends, by name. */
export function defineUpdate<Ret, Args extends unknown[] = []>(name: string): UpdateDefinition<Ret, Args>;
export function defineUpdate(name: string): { type: 'update'; name: string } {
  return { type: 'update', name };
}

/** A signal a workflow handles and a client sends, by name. */
export function defineSignal<Args extends unknown[] = []>(name: string): SignalDefinition<Args>;
export function defineSignal(name: string): { type: 'signal'; name: string } {
  return { type: 'signal', name };
}

/** A query a workflow answers and a client asks, by name. */
export function defineQuery<Ret, Args extends unknown[] = []>(name: string): QueryDefinition<Ret, Args>;
export function defineQuery(name: string): { type: 'query'; name: string } {
  return { type: 'query', name };
}
