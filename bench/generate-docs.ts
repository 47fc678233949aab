/** Deterministic synthetic docs for the benchmarks: a Zipf-like vocabulary, realistic page shapes. */

export function seededRandom(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'te', 'vo', 'zi', 'pa', 'qu', 'dex', 'lin', 'mor', 'tan', 'gel'];

/** A vocabulary of `size` pseudo-words; low indexes are drawn far more often (Zipf). */
export function vocabulary(size: number, random: () => number): { words: string[]; draw: () => string } {
  const words = Array.from({ length: size }, (_, i) => {
    let w = '';
    let n = i + 7;
    while (n > 0) {
      w += SYLLABLES[n % SYLLABLES.length];
      n = Math.floor(n / SYLLABLES.length);
    }
    return w;
  });
  const draw = () => words[Math.min(size - 1, Math.floor(Math.exp(random() * Math.log(size + 1)) - 1))]!;
  return { words, draw };
}

export function sentence(draw: () => string, random: () => number, length = 8 + Math.floor(random() * 10)): string {
  const ws = Array.from({ length }, draw);
  return `${ws.join(' ')}.`.replace(/^./, (c) => c.toUpperCase());
}

/** One MDX page: frontmatter, sections with prose, a code block and a component. */
export function generatePage(i: number, draw: () => string, random: () => number): string {
  const title = `${draw()} ${draw()} ${i}`;
  const sections = Array.from({ length: 3 + Math.floor(random() * 3) }, (_, s) => {
    const prose = Array.from({ length: 2 + Math.floor(random() * 3) }, () => sentence(draw, random)).join(' ');
    const code = s % 2 === 0 ? `\n\n\`\`\`ts\nconst ${draw()}Value = await client.${draw()}({ ${draw()}: ${i} });\n\`\`\`` : '';
    const note = s === 1 ? `\n\n<Note>${sentence(draw, random)}</Note>` : '';
    return `## ${draw()} ${draw()}\n\n${prose}${code}${note}`;
  });
  return `---\ntitle: ${title}\ndescription: ${sentence(draw, random, 8)}\n---\n\n${sections.join('\n\n')}\n`;
}
