import { createHash } from 'node:crypto';

export interface LlmsFile {
  text: string;
  /** A strong validator: changes with the index generation and the text. */
  etag: string;
}

interface Entry {
  generation: string;
  file: Promise<LlmsFile>;
  chars: number;
}

/** About 50 MB of UTF-16 text: many small sites, or a few very large llms-full.txt files. */
const DEFAULT_MAX_CHARS = 25_000_000;

/**
 * The rendered files of each domain, kept until the domain's index
 * generation changes (a re-index), oldest evicted first past a size budget.
 * Concurrent requests for a file being rendered share the one rendering.
 */
export class LlmsCache {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(private readonly maxChars = DEFAULT_MAX_CHARS) {}

  async get(key: string, generation: string, render: () => Promise<string>): Promise<LlmsFile> {
    const hit = this.entries.get(key);
    if (hit?.generation === generation) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.file;
    }
    const entry: Entry = { generation, chars: 0, file: this.render(generation, render) };
    this.remove(key);
    this.entries.set(key, entry);
    try {
      const file = await entry.file;
      if (this.entries.get(key) === entry) {
        entry.chars = file.text.length;
        this.chars += entry.chars;
        this.evict();
      }
      return file;
    } catch (err) {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      throw err;
    }
  }

  private async render(generation: string, render: () => Promise<string>): Promise<LlmsFile> {
    const text = await render();
    const etag = `"${createHash('sha256').update(generation).update('\0').update(text).digest('base64url').slice(0, 27)}"`;
    return { text, etag };
  }

  private remove(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.chars -= old.chars;
    this.entries.delete(key);
  }

  private evict(): void {
    for (const key of this.entries.keys()) {
      if (this.chars <= this.maxChars || this.entries.size <= 1) return;
      this.remove(key);
    }
  }
}
