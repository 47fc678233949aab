import { withoutCutSurrogate } from '../../core/unicode.js';

/**
 * A provider-neutral token estimate: about four characters per token for
 * English prose and code, rounded up. Good enough to keep a prompt inside a
 * budget without shipping one tokenizer per model family.
 */
export function estimateTokens(text: string): number {
  return tokensOfLength(text.length);
}

/** The estimate of a text of `chars` characters, for a text not written out. */
export function tokensOfLength(chars: number): number {
  return Math.ceil(chars / 4);
}

/** The longest prefix of `text` that fits `tokens`, marked as cut when it was. */
export function truncateToTokens(text: string, tokens: number): string {
  const chars = Math.max(0, tokens * 4);
  if (text.length <= chars) return text;
  const marker = '\n[…truncated]';
  return withoutCutSurrogate(text.slice(0, Math.max(0, chars - marker.length))) + marker;
}
