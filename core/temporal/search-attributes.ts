import type { Connection } from '@temporalio/client';
// The SDK's own mapping from an attribute's type to the wire enum (not re-exported from the package's root).
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { SEARCH_ATTRIBUTES } from '../contracts/search-attributes.js';

/** The operator service of a client or worker connection: the two calls this module makes. */
export type SearchAttributeOperator = Pick<Connection['operatorService'], 'listSearchAttributes' | 'addSearchAttributes'>;

/** gRPC ALREADY_EXISTS: another process added the same attribute first. */
const ALREADY_EXISTS = 6;

/** What an operator registers by hand where Quire may not (Temporal Cloud): `QuireJobStatus=Keyword`, … */
export const SEARCH_ATTRIBUTE_SPECS = SEARCH_ATTRIBUTES.map((a) => `${a.name}=${a.type === 'KEYWORD' ? 'Keyword' : a.type}`);

async function missingOn(operator: SearchAttributeOperator, namespace: string) {
  const { customAttributes } = await operator.listSearchAttributes({ namespace });
  return SEARCH_ATTRIBUTES.filter((a) => !Object.hasOwn(customAttributes ?? {}, a.name));
}

/**
 * Adds Quire's custom search attributes that `namespace` lacks, so a cluster an operator points
 * Quire at needs no setup step (without them every workflow start is refused). Returns the names
 * it added: none when all are there. Two processes adding at once is fine. A cluster that does not
 * let a client add them (Temporal Cloud, where they are added in its console or API) throws.
 */
export async function registerSearchAttributes(operator: SearchAttributeOperator, namespace: string): Promise<string[]> {
  const missing = await missingOn(operator, namespace);
  if (missing.length === 0) return [];
  const searchAttributes = Object.fromEntries(missing.map((a) => [a.name, encodeSearchAttributeIndexedValueType(a.type)!]));
  try {
    await operator.addSearchAttributes({ namespace, searchAttributes });
  } catch (err) {
    if ((err as { code?: unknown }).code !== ALREADY_EXISTS || (await missingOn(operator, namespace)).length > 0) throw err;
  }
  return missing.map((a) => a.name);
}
