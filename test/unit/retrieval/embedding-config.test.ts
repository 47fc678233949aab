import assert from 'node:assert/strict';
import { ConfigError, defaultInputMarking, loadConfig, LOCAL_EMBEDDING_MODEL } from '../../../core/config.js';
import { embedderId } from '../../../core/retrieval/index.js';

const load = (env: Record<string, string>) => loadConfig({ QUIRE_DATA_DIR: '/tmp/unused', ...env });

function problemsOf(env: Record<string, string>): string[] {
  try {
    load(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  return [];
}

describe('embedding configuration', () => {
  it('defaults to the local embedder on loopback, marked by input_type, with no chat model', () => {
    const c = load({});
    assert.equal(c.embedder.kind, 'local');
    assert.equal(c.model, undefined);
    assert.equal(c.embedding?.baseUrl, 'http://127.0.0.1:7997/v1');
    assert.equal(c.embedding?.marking, 'input_type');
    assert.equal(load({ QUIRE_EMBEDDER_PORT: '8123' }).embedding?.baseUrl, 'http://127.0.0.1:8123/v1');
  });

  it('asks the local embedder for 16 texts a request and a remote endpoint for 64, unless QUIRE_EMBEDDING_BATCH_SIZE says', () => {
    assert.equal(load({}).indexing.embeddingBatchSize, 16);
    assert.equal(load({ QUIRE_EMBEDDING_MODEL: 'text-embedding-3-small', QUIRE_EMBEDDING_BASE_URL: 'http://127.0.0.1:9/v1' }).indexing.embeddingBatchSize, 64);
    assert.equal(load({ QUIRE_EMBEDDING_BATCH_SIZE: '8' }).indexing.embeddingBatchSize, 8);
    assert.deepEqual(problemsOf({ QUIRE_EMBEDDING_BATCH_SIZE: '0' }).length, 1);
  });

  it('QUIRE_EMBEDDER=none turns embeddings off; a chat model alone does not need them', () => {
    assert.equal(load({ QUIRE_EMBEDDER: 'none' }).embedding, undefined);
    const chatOnly = load({ QUIRE_EMBEDDER: 'none', QUIRE_MODEL: 'gpt', QUIRE_MODEL_API_KEY: 'sk-chat' });
    assert.equal(chatOnly.model?.name, 'gpt');
    assert.equal(chatOnly.embedding, undefined);
  });

  it('an embedding endpoint and key of their own, apart from the chat model', () => {
    const c = load({
      QUIRE_MODEL: 'gpt', QUIRE_MODEL_BASE_URL: 'https://chat.example/v1', QUIRE_MODEL_API_KEY: 'sk-chat',
      QUIRE_EMBEDDING_BASE_URL: 'http://vectors.internal:8080/v1', QUIRE_EMBEDDING_API_KEY: 'sk-embed', QUIRE_EMBEDDING_MODEL: 'intfloat/e5-base-v2',
    });
    assert.equal(c.embedder.kind, 'openai');
    assert.equal(c.embedding?.baseUrl, 'http://vectors.internal:8080/v1');
    assert.equal(c.embedding?.apiKey, 'sk-embed');
    assert.equal(c.embedding?.marking, 'prefix');
    assert.equal(c.model?.apiKey, 'sk-chat');
    // Without its own endpoint, embeddings share the chat model's.
    const shared = load({ QUIRE_MODEL: 'gpt', QUIRE_MODEL_API_KEY: 'sk-chat', QUIRE_EMBEDDING_MODEL: 'text-embedding-3-small' });
    assert.equal(shared.embedding?.apiKey, 'sk-chat');
    assert.equal(shared.embedding?.marking, 'none');
  });

  it('picks a marking per model name, and the configuration overrides it', () => {
    assert.equal(defaultInputMarking(LOCAL_EMBEDDING_MODEL), 'input_type');
    assert.equal(defaultInputMarking('intfloat/multilingual-e5-large'), 'prefix');
    assert.equal(defaultInputMarking('BAAI/bge-small-en-v1.5'), 'prefix');
    assert.equal(defaultInputMarking('voyage-3'), 'input_type');
    assert.equal(defaultInputMarking('text-embedding-3-large'), 'none');
    assert.equal(load({ QUIRE_EMBEDDING_MODEL: 'e5-base', QUIRE_EMBEDDING_INPUT_MARKING: 'none' }).embedding?.marking, 'none');
    // The marking is part of the vectors' identity: changing it re-embeds.
    assert.notEqual(embedderId({ model: 'e5', dimensions: undefined, marking: 'prefix' }), embedderId({ model: 'e5', dimensions: undefined, marking: 'none' }));
  });

  it('errors name the variable and the rule', () => {
    assert.deepEqual(problemsOf({ QUIRE_EMBEDDER: 'onnx' }), ['QUIRE_EMBEDDER: must be local, openai or none']);
    assert.deepEqual(problemsOf({ QUIRE_EMBEDDER: 'openai' }), ['QUIRE_EMBEDDING_MODEL: required when QUIRE_EMBEDDER is openai']);
    assert.deepEqual(problemsOf({ QUIRE_EMBEDDER: 'none', QUIRE_EMBEDDING_MODEL: 'e5' }), ['QUIRE_EMBEDDING_MODEL: only used when QUIRE_EMBEDDER is openai (it is none)']);
    assert.deepEqual(problemsOf({ QUIRE_EMBEDDING_INPUT_MARKING: 'suffix' }), ['QUIRE_EMBEDDING_INPUT_MARKING: must be prefix, input_type or none']);
    assert.deepEqual(problemsOf({ QUIRE_EMBEDDING_BASE_URL: 'not a url', QUIRE_EMBEDDING_MODEL: 'e5' }), ['QUIRE_EMBEDDING_BASE_URL: must be a URL such as http://host:port']);
  });
});
