/** Nested values are JSON text in both dialects. */
export function json(value: unknown): string {
  return JSON.stringify(value);
}

/** A JSON column read back; the schema that wrote it is the one that reads it. */
export function parseJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** Booleans are 0/1 in both dialects. */
export function bool(value: boolean): number {
  return value ? 1 : 0;
}

export function fromBool(value: number): boolean {
  return value !== 0;
}
