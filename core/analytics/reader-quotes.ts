/**
 * Readers' questions quoted in an agent job's prompt (a coverage gap's job): in a delimited block
 * the agent is told to read as untrusted data, and that the job's pull request leaves out. A
 * reader asked the site's assistant, not the repository's public pull requests: a question may
 * name its asker, an account or a customer.
 */
export const READER_QUOTES_BEGIN = '<<<READER QUESTIONS: UNTRUSTED QUOTES>>>';
export const READER_QUOTES_END = '<<<END OF READER QUESTIONS>>>';

/** The block: its two marker lines around one JSON string per question (no question can close it early). */
export function readerQuoteBlock(quotes: readonly string[]): string[] {
  return [READER_QUOTES_BEGIN, ...quotes.map((q) => JSON.stringify(q)), READER_QUOTES_END];
}

/** `prompt` with each block of readers' questions replaced by a line saying how many it held. */
export function withoutReaderQuotes(prompt: string): string {
  const lines = prompt.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const end = lines[i] === READER_QUOTES_BEGIN ? lines.indexOf(READER_QUOTES_END, i + 1) : -1;
    if (end < 0) {
      out.push(lines[i]!);
      continue;
    }
    const n = end - i - 1;
    out.push(`[${n} reader question${n === 1 ? '' : 's'}, quoted to the agent, left out here]`);
    i = end;
  }
  return out.join('\n');
}
