import type { Redis } from 'ioredis';
import * as v from 'valibot';
import { parseAnswerRecord } from './answer-record.js';
import type {
  AnalyticsEvent,
  AnalyticsStore,
  AnswerRecord,
  CallerStat,
  CategoryStat,
  FeedbackRecord,
  FeedbackView,
  GapJob,
  GapQuestion,
  ListPage,
  ListQuery,
  PageFeedback,
  SearchStat,
  TimeRange,
} from './types.js';

const PREFIX = 'quire:analytics';
const DOMAINS = `${PREFIX}:domains`;
const CHUNK = 500;

const key = (domainId: string, name: string) => `${PREFIX}:${domainId}:${name}`;

const SearchSchema = v.object({ query: v.string(), hits: v.number(), at: v.number(), clicks: v.number() });
const ClickSchema = v.object({ query: v.string(), path: v.string(), at: v.number() });
const FeedbackSchema = v.object({ threadId: v.string(), helpful: v.boolean(), comment: v.nullable(v.string()), at: v.number() });
const GapJobSchema = v.object({ gapId: v.string(), projectId: v.string(), jobId: v.string(), at: v.number() });

function parsed<T extends v.GenericSchema>(schema: T, json: string | null | undefined): v.InferOutput<T> | undefined {
  if (!json) return undefined;
  try {
    const result = v.safeParse(schema, JSON.parse(json));
    return result.success ? result.output : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Analytics in Redis: per domain, a sorted set by time of each kind of record
 * (answers, searches, clicks, ratings) beside a hash of their bodies. Range
 * queries walk the sorted set; the aggregates are computed here, which the
 * embedded store does in SQL.
 */
export class RedisAnalyticsStore implements AnalyticsStore {
  constructor(private readonly redis: Redis) {}

  async write(events: AnalyticsEvent[]): Promise<void> {
    const tx = this.redis.multi();
    for (const event of events) {
      const d = event.record.domainId;
      tx.sadd(DOMAINS, d);
      if (event.kind === 'answer') {
        const r = event.record;
        tx.zadd(key(d, 'answers'), r.at, r.id).hset(key(d, 'answer'), r.id, JSON.stringify(r));
        if (r.threadId) tx.zadd(key(d, `thread:${r.threadId}`), r.at, r.id);
      } else if (event.kind === 'search') {
        const r = event.record;
        tx.zadd(key(d, 'searches'), r.at, r.id).hsetnx(key(d, 'search'), r.id, JSON.stringify({ query: r.query, hits: r.hits, at: r.at, clicks: 0, caller: r.caller }));
      }
    }
    await tx.exec();
    // A click updates its search: read, then write (a lost race costs one click count, never a record).
    for (const event of events) {
      if (event.kind !== 'click') continue;
      const r = event.record;
      const search = parsed(SearchSchema, await this.redis.hget(key(r.domainId, 'search'), r.searchId));
      if (!search) continue;
      await this.redis
        .multi()
        .hset(key(r.domainId, 'search'), r.searchId, JSON.stringify({ ...search, clicks: search.clicks + 1 }))
        .zadd(key(r.domainId, 'clicks'), r.at, JSON.stringify({ query: search.query, path: r.path, at: r.at, searchId: r.searchId }))
        .exec();
    }
  }

  async putFeedback(f: FeedbackRecord): Promise<void> {
    const body = JSON.stringify({ threadId: f.threadId, helpful: f.helpful, comment: f.comment, at: f.at });
    await this.redis.multi().sadd(DOMAINS, f.domainId).zadd(key(f.domainId, 'feedback'), f.at, f.messageId).hset(key(f.domainId, 'rating'), f.messageId, body).exec();
  }

  /** Members newest first within the range, after the cursor, at most `limit + 1`. */
  private async page(zset: string, q: ListQuery): Promise<Array<{ id: string; at: number }>> {
    const upper = q.after ? Math.min(q.after.at, q.to) : q.to;
    const out: Array<{ id: string; at: number }> = [];
    for (let offset = 0; out.length <= q.limit; offset += CHUNK) {
      const flat = await this.redis.zrange(zset, upper, q.from, 'BYSCORE', 'REV', 'LIMIT', offset, CHUNK, 'WITHSCORES');
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const id = flat[i]!;
        const at = Number(flat[i + 1]);
        // Equal times come in descending id order, as the cursor expects.
        if (q.after && at === q.after.at && id >= q.after.id) continue;
        out.push({ id, at });
      }
      if (flat.length < CHUNK * 2) break;
    }
    return out.slice(0, q.limit + 1);
  }

  /** Every member in the range (oldest first). */
  private async range(zset: string, range: TimeRange): Promise<string[]> {
    return this.redis.zrange(zset, range.from, range.to, 'BYSCORE');
  }

  private async bodies(hash: string, ids: string[]): Promise<Array<string | null>> {
    const out: Array<string | null> = [];
    for (let i = 0; i < ids.length; i += CHUNK) out.push(...(ids.length === 0 ? [] : await this.redis.hmget(hash, ...ids.slice(i, i + CHUNK))));
    return out;
  }

  private async answers(domainId: string, ids: string[]): Promise<Array<AnswerRecord | undefined>> {
    return (await this.bodies(key(domainId, 'answer'), ids)).map((b) => (b ? parseAnswerRecord(b) : undefined));
  }

  async listAnswers(domainId: string, q: ListQuery): Promise<ListPage<AnswerRecord>> {
    const rows = await this.page(key(domainId, 'answers'), q);
    const records = (await this.answers(domainId, rows.map((r) => r.id))).filter((r): r is AnswerRecord => r !== undefined);
    const items = records.slice(0, q.limit);
    const last = items.at(-1);
    return { items, next: rows.length > q.limit && last ? { at: last.at, id: last.id } : undefined };
  }

  async threadAnswers(domainId: string, threadId: string): Promise<AnswerRecord[]> {
    const ids = await this.redis.zrange(key(domainId, `thread:${threadId}`), 0, -1);
    return (await this.answers(domainId, ids)).filter((r): r is AnswerRecord => r !== undefined);
  }

  async callerStats(domainId: string, range: TimeRange): Promise<CallerStat[]> {
    const records = await this.answers(domainId, await this.range(key(domainId, 'answers'), range));
    const stats = new Map<string, CallerStat>();
    for (const r of records) {
      if (!r) continue;
      const k = `${r.caller}/${r.surface}`;
      const s = stats.get(k) ?? { caller: r.caller, surface: r.surface, total: 0, answered: 0, unanswered: 0 };
      s.total += 1;
      if (r.resolution === 'answered') s.answered += 1;
      else s.unanswered += 1;
      stats.set(k, s);
    }
    return [...stats.values()].sort((a, b) => b.total - a.total || a.caller.localeCompare(b.caller) || a.surface.localeCompare(b.surface));
  }

  async categoryStats(domainId: string, range: TimeRange): Promise<CategoryStat[]> {
    const stats = new Map<string | null, CategoryStat>();
    for (const r of await this.answers(domainId, await this.range(key(domainId, 'answers'), range))) {
      if (!r) continue;
      const s = stats.get(r.category) ?? { category: r.category, total: 0, unanswered: 0 };
      s.total += 1;
      if (r.resolution === 'unanswered') s.unanswered += 1;
      stats.set(r.category, s);
    }
    // SQLite sorts NULL first among equals; so does this.
    return [...stats.values()].sort((a, b) => b.total - a.total || (a.category === null ? -1 : b.category === null ? 1 : a.category < b.category ? -1 : 1));
  }

  async searchStats(domainId: string, range: TimeRange): Promise<SearchStat[]> {
    const searches = (await this.bodies(key(domainId, 'search'), await this.range(key(domainId, 'searches'), range))).map((b) => parsed(SearchSchema, b));
    const clicks = (await this.redis.zrange(key(domainId, 'clicks'), range.from, range.to, 'BYSCORE')).map((b) => parsed(ClickSchema, b));
    const byQuery = new Map<string, SearchStat & { hitSum: number; pages: Map<string, number> }>();
    for (const s of searches) {
      if (!s) continue;
      const stat = byQuery.get(s.query) ?? { query: s.query, searches: 0, averageHits: 0, clickedSearches: 0, topClickedPage: null, lastSearchedAt: 0, hitSum: 0, pages: new Map() };
      stat.searches += 1;
      stat.hitSum += s.hits;
      if (s.clicks > 0) stat.clickedSearches += 1;
      stat.lastSearchedAt = Math.max(stat.lastSearchedAt, s.at);
      byQuery.set(s.query, stat);
    }
    for (const c of clicks) {
      const stat = c ? byQuery.get(c.query) : undefined;
      if (c && stat) stat.pages.set(c.path, (stat.pages.get(c.path) ?? 0) + 1);
    }
    return [...byQuery.values()]
      .map(({ hitSum, pages, ...stat }) => ({
        ...stat,
        averageHits: hitSum / stat.searches,
        topClickedPage: stat.clickedSearches > 0 ? ([...pages.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0] ?? null) : null,
      }))
      .sort((a, b) => b.searches - a.searches || (a.query < b.query ? -1 : 1));
  }

  private async views(domainId: string, ids: string[]): Promise<FeedbackView[]> {
    const ratings = await this.bodies(key(domainId, 'rating'), ids);
    const answers = await this.answers(domainId, ids);
    return ids.flatMap((messageId, i) => {
      const f = parsed(FeedbackSchema, ratings[i]);
      const a = answers[i];
      return f ? [{ domainId, messageId, ...f, question: a?.question ?? null, currentPath: a?.currentPath ?? null }] : [];
    });
  }

  async listFeedback(domainId: string, q: ListQuery): Promise<ListPage<FeedbackView>> {
    const rows = await this.page(key(domainId, 'feedback'), q);
    const views = await this.views(domainId, rows.map((r) => r.id));
    const items = views.slice(0, q.limit);
    const last = items.at(-1);
    return { items, next: rows.length > q.limit && last ? { at: last.at, id: last.messageId } : undefined };
  }

  async feedbackByPage(domainId: string, range: TimeRange): Promise<PageFeedback[]> {
    const views = await this.views(domainId, await this.range(key(domainId, 'feedback'), range));
    const pages = new Map<string | null, PageFeedback>();
    for (const f of views) {
      const p = pages.get(f.currentPath) ?? { path: f.currentPath, helpful: 0, notHelpful: 0 };
      if (f.helpful) p.helpful += 1;
      else p.notHelpful += 1;
      pages.set(f.currentPath, p);
    }
    return [...pages.values()].sort((a, b) => b.notHelpful - a.notHelpful || b.helpful - a.helpful || String(a.path).localeCompare(String(b.path)));
  }

  async gapQuestions(domainId: string, range: TimeRange, max: number): Promise<GapQuestion[]> {
    const ids = (await this.range(key(domainId, 'answers'), range)).reverse();
    const ratings = await this.bodies(key(domainId, 'rating'), ids);
    const out: GapQuestion[] = [];
    for (let i = 0; i < ids.length && out.length < max; i += CHUNK) {
      const records = await this.answers(domainId, ids.slice(i, i + CHUNK));
      records.forEach((record, j) => {
        const notHelpful = parsed(FeedbackSchema, ratings[i + j])?.helpful === false;
        if (record && out.length < max && (record.resolution === 'unanswered' || notHelpful)) out.push({ record, notHelpful });
      });
    }
    return out;
  }

  async putGapJob(job: GapJob): Promise<void> {
    await this.redis.multi().sadd(DOMAINS, job.domainId).hset(key(job.domainId, 'gap-jobs'), job.jobId, JSON.stringify(job)).exec();
  }

  async gapJobs(domainId: string): Promise<GapJob[]> {
    const all = await this.redis.hvals(key(domainId, 'gap-jobs'));
    return all
      .map((b) => parsed(GapJobSchema, b))
      .filter((j): j is v.InferOutput<typeof GapJobSchema> => j !== undefined)
      .map((j) => ({ domainId, ...j }))
      .sort((a, b) => a.at - b.at || (a.jobId < b.jobId ? -1 : 1));
  }

  async purge(before: number): Promise<number> {
    let removed = 0;
    for (const d of await this.redis.smembers(DOMAINS)) {
      const answerIds = await this.redis.zrange(key(d, 'answers'), '-inf', `(${before}`, 'BYSCORE');
      const threads = (await this.answers(d, answerIds)).flatMap((a) => (a?.threadId ? [a] : []));
      const searchIds = await this.redis.zrange(key(d, 'searches'), '-inf', `(${before}`, 'BYSCORE');
      const ratingIds = await this.redis.zrange(key(d, 'feedback'), '-inf', `(${before}`, 'BYSCORE');
      const jobs = (await this.gapJobs(d)).filter((j) => j.at < before);
      const tx = this.redis.multi();
      for (let i = 0; i < answerIds.length; i += CHUNK) tx.hdel(key(d, 'answer'), ...answerIds.slice(i, i + CHUNK));
      for (const a of threads) tx.zrem(key(d, `thread:${a.threadId}`), a.id);
      for (let i = 0; i < searchIds.length; i += CHUNK) tx.hdel(key(d, 'search'), ...searchIds.slice(i, i + CHUNK));
      for (let i = 0; i < ratingIds.length; i += CHUNK) tx.hdel(key(d, 'rating'), ...ratingIds.slice(i, i + CHUNK));
      for (const j of jobs) tx.hdel(key(d, 'gap-jobs'), j.jobId);
      for (const name of ['answers', 'searches', 'clicks', 'feedback']) tx.zremrangebyscore(key(d, name), '-inf', `(${before}`);
      const results = await tx.exec();
      const zrems = (results ?? []).slice(-4);
      removed += zrems.reduce((sum, [, n]) => sum + (typeof n === 'number' ? n : 0), 0) + jobs.length;
    }
    return removed;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }
}
