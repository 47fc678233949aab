import http from 'node:http';

/**
 * Stands in for a Qdrant server (no Qdrant can run here): an in-memory HTTP
 * server speaking Qdrant's REST protocol for the calls Quire makes
 * (collection exists/create, payload index, points upsert/delete/scroll/query
 * with sparse IDF, dense cosine and RRF fusion, and query/groups). It records every request so
 * tests assert on the exact bodies the real client sends.
 */

export interface RecordedQdrantRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  apiKey: string | undefined;
}

interface Point {
  id: string | number;
  vector: Record<string, unknown>;
  payload: Record<string, unknown>;
}

export interface FakeQdrant {
  url: string;
  requests: RecordedQdrantRequest[];
  collections: Map<string, { config: unknown; points: Map<string | number, Point> }>;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function fieldValues(payload: Json, key: string): unknown[] {
  const v = payload[key];
  return v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
}

/** Qdrant's filter semantics for the condition kinds Quire uses. */
export function matches(payload: Json, cond: unknown): boolean {
  if (!isObj(cond)) return true;
  if ('must' in cond || 'should' in cond || 'must_not' in cond) {
    const must = list(cond.must).every((c) => matches(payload, c));
    const should = cond.should === undefined || list(cond.should).some((c) => matches(payload, c));
    const mustNot = list(cond.must_not).every((c) => !matches(payload, c));
    return must && should && mustNot;
  }
  if (isObj(cond.is_empty)) return fieldValues(payload, String(cond.is_empty.key)).length === 0;
  if (typeof cond.key === 'string' && isObj(cond.match)) {
    const values = fieldValues(payload, cond.key);
    if ('value' in cond.match) return values.includes(cond.match.value);
    if ('any' in cond.match) return list(cond.match.any).some((a) => values.includes(a));
  }
  throw new Error(`fake Qdrant: unsupported condition ${JSON.stringify(cond)}`);
}

function sparseScore(points: Point[], using: string, query: Json): Map<Point, number> {
  const indices = list(query.indices).map(Number);
  const values = list(query.values).map(Number);
  const withVector: Array<{ p: Point; sv: Json }> = [];
  for (const p of points) {
    const sv = p.vector[using];
    if (isObj(sv)) withVector.push({ p, sv });
  }
  const scores = new Map<Point, number>();
  indices.forEach((term, qi) => {
    const holders = withVector.filter(({ sv }) => list(sv.indices).includes(term));
    const n = withVector.length;
    const idf = Math.log((n - holders.length + 0.5) / (holders.length + 0.5) + 1);
    for (const { p, sv } of holders) {
      const v = Number(list(sv.values)[list(sv.indices).indexOf(term)]);
      scores.set(p, (scores.get(p) ?? 0) + values[qi]! * v * idf);
    }
  });
  return scores;
}

function denseScore(points: Point[], using: string, query: number[]): Map<Point, number> {
  const scores = new Map<Point, number>();
  for (const p of points) {
    const v = list(p.vector[using]).map(Number);
    if (v.length === 0) continue;
    let dot = 0, a = 0, b = 0;
    v.forEach((x, i) => ((dot += x * (query[i] ?? 0)), (a += x * x), (b += (query[i] ?? 0) ** 2)));
    scores.set(p, a && b ? dot / Math.sqrt(a * b) : 0);
  }
  return scores;
}

function rank(points: Point[], req: Json): Array<{ point: Point; score: number }> {
  const pool = points.filter((p) => matches(p.payload, req.filter));
  const limit = Number(req.limit ?? 10);
  if (isObj(req.query) && 'fusion' in req.query) {
    const fused = new Map<Point, number>();
    for (const pre of list(req.prefetch)) {
      rank(pool, isObj(pre) ? pre : {}).forEach(({ point }, r) => fused.set(point, (fused.get(point) ?? 0) + 1 / (r + 1 + 2)));
    }
    return [...fused].map(([point, score]) => ({ point, score })).sort((x, y) => y.score - x.score).slice(0, limit);
  }
  const using = String(req.using ?? '');
  const scores = Array.isArray(req.query) ? denseScore(pool, using, req.query.map(Number)) : sparseScore(pool, using, isObj(req.query) ? req.query : {});
  return [...scores].map(([point, score]) => ({ point, score })).sort((x, y) => y.score - x.score).slice(0, limit);
}

function project(payload: Json, withPayload: unknown): Json | undefined {
  if (withPayload === true) return payload;
  if (Array.isArray(withPayload)) return Object.fromEntries(withPayload.map(String).filter((k) => k in payload).map((k) => [k, payload[k]]));
  return undefined;
}

/** The Qdrant release the fake answers as: the one docker-compose.yml runs. */
export const FAKE_QDRANT_VERSION = '1.18.2';

export interface FakeQdrantOptions {
  apiKey?: string;
  /** The version the root endpoint reports (FAKE_QDRANT_VERSION by default). */
  version?: string;
  /** Holds the answers to "collection exists?" until this many have been asked, as if they all raced. */
  existsBarrier?: number;
  /** Answers the nth points upsert (1 for the first) with Qdrant's 500, storing none of its points, when this says so of it and its points. */
  failUpsert?: (n: number, points: unknown[]) => boolean;
  /** The port to listen on (a free one by default): a server started again where one was, as after an outage. */
  port?: number;
}

export async function startFakeQdrant(opts: FakeQdrantOptions = {}): Promise<FakeQdrant> {
  const requests: RecordedQdrantRequest[] = [];
  const heldExists: Array<() => void> = [];
  const collections: FakeQdrant['collections'] = new Map();
  let upserts = 0;

  const handle = (method: string, path: string, body: Json): [number, unknown] => {
    const m = /^\/collections\/([^/]+)(\/.*)?$/.exec(path);
    if (!m) return [404, { status: { error: `no route ${path}` } }];
    const name = decodeURIComponent(m[1]!);
    const rest = m[2] ?? '';
    const col = collections.get(name);
    if (method === 'GET' && rest === '/exists') return [200, { exists: Boolean(col) }];
    if (method === 'PUT' && rest === '') {
      if (col) return [409, { status: { error: `Collection \`${name}\` already exists!` } }];
      collections.set(name, { config: body, points: new Map() });
      return [200, true];
    }
    if (!col) return [404, { status: { error: `Collection \`${name}\` doesn't exist!` } }];
    if (method === 'GET' && rest === '') return [200, { status: 'green', points_count: col.points.size, config: { params: col.config } }];
    if (method === 'PUT' && rest === '/index') return [200, { operation_id: 1, status: 'completed' }];
    if (method === 'PUT' && rest === '/points') {
      upserts++;
      if (opts.failUpsert?.(upserts, list(body.points))) return [500, { status: { error: 'Service internal error: the update could not be applied' } }];
      for (const p of list(body.points)) {
        if (!isObj(p)) continue;
        const id = typeof p.id === 'number' ? p.id : String(p.id);
        col.points.set(id, { id, vector: isObj(p.vector) ? p.vector : {}, payload: isObj(p.payload) ? p.payload : {} });
      }
      return [200, { operation_id: 2, status: 'completed' }];
    }
    if (method === 'POST' && rest === '/points/delete') {
      for (const [id, p] of col.points) if (matches(p.payload, body.filter)) col.points.delete(id);
      return [200, { operation_id: 3, status: 'completed' }];
    }
    if (method === 'POST' && rest === '/points/scroll') {
      const all = [...col.points.values()].filter((p) => matches(p.payload, body.filter));
      const start = typeof body.offset === 'number' ? body.offset : 0;
      const limit = Number(body.limit ?? 10);
      const page = all.slice(start, start + limit).map((p) => ({ id: p.id, payload: project(p.payload, body.with_payload ?? true) }));
      return [200, { points: page, next_page_offset: start + limit < all.length ? start + limit : null }];
    }
    if (method === 'POST' && rest === '/points/query') {
      const points = rank([...col.points.values()], body).map(({ point, score }) => ({
        id: point.id, version: 0, score, payload: project(point.payload, body.with_payload),
      }));
      return [200, { points }];
    }
    if (method === 'POST' && rest === '/points/query/groups') {
      // Groups in the order of their best point, as Qdrant ranks them; `limit` counts groups.
      const groups = new Map<string, Array<{ id: string | number; version: number; score: number; payload: Json | undefined }>>();
      for (const { point, score } of rank([...col.points.values()], { ...body, limit: Number.MAX_SAFE_INTEGER })) {
        const key = point.payload[String(body.group_by)];
        if (typeof key !== 'string' && typeof key !== 'number') continue;
        const hits = groups.get(String(key)) ?? [];
        if (!groups.has(String(key))) {
          if (groups.size === Number(body.limit ?? 10)) continue;
          groups.set(String(key), hits);
        }
        if (hits.length < Number(body.group_size ?? 3)) hits.push({ id: point.id, version: 0, score, payload: project(point.payload, body.with_payload) });
      }
      return [200, { groups: [...groups].map(([id, hits]) => ({ id, hits })) }];
    }
    return [404, { status: { error: `no route ${method} ${path}` } }];
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d.toString()));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const body: unknown = raw ? JSON.parse(raw) : {};
      const apiKey = typeof req.headers['api-key'] === 'string' ? req.headers['api-key'] : undefined;
      requests.push({ method: req.method ?? 'GET', path: url.pathname, query: Object.fromEntries(url.searchParams), body, apiKey });
      if (req.method === 'GET' && url.pathname === '/') {
        // Qdrant's root answers its version unwrapped (no result/status envelope); clients check compatibility with it.
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ title: 'qdrant - vector search engine', version: opts.version ?? FAKE_QDRANT_VERSION, commit: 'fake' }));
        return;
      }
      const answer = () => {
        const [status, result]: [number, unknown] =
          opts.apiKey && apiKey !== opts.apiKey
            ? [401, { status: { error: 'Invalid api-key' } }]
            : handle(req.method ?? 'GET', url.pathname, isObj(body) ? body : {});
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(status === 200 ? { result, status: 'ok', time: 0.001 } : { ...(isObj(result) ? result : {}), time: 0.001 }));
      };
      if (opts.existsBarrier && url.pathname.endsWith('/exists') && heldExists.length < opts.existsBarrier) {
        heldExists.push(answer);
        if (heldExists.length === opts.existsBarrier) for (const held of heldExists) held();
        return;
      }
      answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('fake Qdrant: no TCP address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    collections,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
