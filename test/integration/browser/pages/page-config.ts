/** What the test server puts in `window.QUIRE` before the page script. */
export interface PageConfig {
  api: string;
  domain: string;
  key: string;
}

export function pageConfig(): PageConfig {
  const config: unknown = Reflect.get(window, 'QUIRE');
  const field = (name: keyof PageConfig): string => {
    const value: unknown = typeof config === 'object' && config !== null ? Reflect.get(config, name) : undefined;
    if (typeof value !== 'string') throw new Error(`window.QUIRE.${name} is missing`);
    return value;
  };
  return { api: field('api'), domain: field('domain'), key: field('key') };
}

export interface Suggestion {
  title: string;
  path: string;
}

/** The answer text and the links of its `suggestions` block, as a front-end written for Mintlify's stream reads them. */
export function splitSuggestions(text: string): { answer: string; suggestions: Suggestion[] } {
  const match = /```suggestions\n([\s\S]*?)(?:\n```|$)/.exec(text);
  if (!match) return { answer: text, suggestions: [] };
  const suggestions = (match[1] ?? '')
    .split('\n')
    .flatMap((line) => {
      const m = /^\((.+)\)\[(.+)\]$/.exec(line.trim());
      return m?.[1] && m[2] ? [{ title: m[1], path: m[2] }] : [];
    });
  return { answer: text.slice(0, match.index).trim(), suggestions };
}

export const field = (value: unknown, name: string): string | undefined => {
  const found: unknown = typeof value === 'object' && value !== null ? Reflect.get(value, name) : undefined;
  return typeof found === 'string' ? found : undefined;
};
