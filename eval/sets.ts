import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LOCAL_EMBEDDING_MODEL } from '../core/config.js';
import { modelEmbedder, createVectorCache, type ChunkEmbedding } from '../core/retrieval/index.js';
import { createModelPort } from '../core/model/index.js';
import { openMigratedDatabase } from '../core/db/index.js';
import { localEmbedderFiles, startLocalEmbedder, type LocalEmbedder } from '../infra/embedder.js';

export interface CorpusSet {
  docs: string;
  /** Question set name → question file; the corpus is indexed once for all of them. */
  questions: Record<string, string>;
  /** The language of the site, given as a domain's would be (a BCP 47 tag); absent: English. */
  language?: string;
}

const ROOT = path.resolve(__dirname, '..');
const QUESTIONS = path.join(__dirname, 'questions');
export const DEFAULT_SETS: CorpusSet[] = [
  {
    docs: path.join(__dirname, 'corpora', 'orrery'),
    questions: { orrery: path.join(QUESTIONS, 'orrery.json'), 'orrery-semantic': path.join(QUESTIONS, 'orrery-semantic.json') },
  },
  {
    docs: path.join(ROOT, 'infra', 'example-docs'),
    questions: { 'example-docs': path.join(QUESTIONS, 'example-docs.json'), 'example-docs-semantic': path.join(QUESTIONS, 'example-docs-semantic.json') },
  },
  // Small sites written in German and French, so that a change to how words are cut shows beyond English.
  { docs: path.join(__dirname, 'corpora', 'speicherwerk'), questions: { speicherwerk: path.join(QUESTIONS, 'speicherwerk.json') }, language: 'de' },
  { docs: path.join(__dirname, 'corpora', 'facturo'), questions: { facturo: path.join(QUESTIONS, 'facturo.json') }, language: 'fr' },
];
/** Vectors survive between runs, so a second eval embeds nothing. */
const VECTOR_CACHE = path.join(os.tmpdir(), 'quire-eval-vector-cache.db');

/**
 * The bundled local embedder on a free port, when setup.sh installed it: the server (its `port`, for
 * a platform configured with `QUIRE_EMBEDDER_PORT`) and page vectors through it, kept in the eval's
 * vector cache.
 */
export async function localEmbedding(): Promise<{ embedding: ChunkEmbedding; server: LocalEmbedder; port: number } | undefined> {
  const files = localEmbedderFiles(ROOT);
  if (!(await fs.stat(files.binary).then(() => true, () => false))) {
    console.log('No local embedder in .tools/embedder (run bash infra/setup.sh): keyword and BM25 only.\n');
    return undefined;
  }
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const server = await startLocalEmbedder({ ...files, port, logFile: path.join(os.tmpdir(), 'quire-eval-embedder.log') });
  const settings = {
    provider: 'openai',
    baseUrl: server.baseUrl,
    apiKey: undefined,
    apiVersion: undefined,
    proxy: { http: undefined, https: undefined, noProxy: undefined },
    model: LOCAL_EMBEDDING_MODEL,
    dimensions: undefined,
    marking: 'input_type',
    queryTimeoutMs: 120_000,
    base64Vectors: true,
  } as const;
  const embedder = modelEmbedder(settings, createModelPort(settings));
  return { embedding: { embedder, cache: createVectorCache(await openMigratedDatabase({ dialect: 'sqlite', file: VECTOR_CACHE })), batchSize: 16 }, server, port };
}
