/** A string literal of Temporal's list filter (visibility query), quoted and escaped. */
export function filterLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
