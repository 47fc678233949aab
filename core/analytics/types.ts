/**
 * What the assistant and the search API record so a team learns what its docs
 * lack. Records are addressed by domain; times are milliseconds since the epoch.
 */

/** Who called: a page on an origin the domain allows, a server (no `Origin`), or anything else. */
export type CallerKind = 'browser' | 'server' | 'other';

/** Which door the question came through. */
export type AnswerSurface = 'assistant' | 'openai' | 'mcp';

/**
 * `no_passages`: retrieval found nothing to answer from (every mode).
 * `no_citation`: a model answered without citing any passage, which its instructions allow only when the docs do not cover the question.
 * `no_match`: without a model, nothing in the pages found shares a word with the question (the answer says so).
 * `failed`: the answer broke off (model error) or the reader left before it was complete.
 */
export type UnansweredReason = 'no_passages' | 'no_citation' | 'no_match' | 'failed';

export interface AnswerSource {
  title: string;
  url: string;
  path: string;
}

export interface AnswerRecord {
  /** The message id of the answer (`msg_…`), or the completion's id on the stateless doors. */
  id: string;
  orgId: string;
  domainId: string;
  threadId: string | null;
  at: number;
  question: string;
  answer: string;
  sources: AnswerSource[];
  mode: 'model' | 'extractive';
  surface: AnswerSurface;
  caller: CallerKind;
  fp: string | null;
  currentPath: string | null;
  resolution: 'answered' | 'unanswered';
  unansweredReason: UnansweredReason | null;
  /** The first path segment of the best source (`/guides/deploy` → `guides`), null without sources. */
  category: string | null;
}

export interface SearchRecord {
  id: string;
  domainId: string;
  at: number;
  query: string;
  hits: number;
  caller: CallerKind;
}

export interface SearchClick {
  domainId: string;
  searchId: string;
  path: string;
  at: number;
}

/** One reader's rating of one answer; a new rating of the same message replaces it. */
export interface FeedbackRecord {
  domainId: string;
  messageId: string;
  threadId: string;
  helpful: boolean;
  comment: string | null;
  at: number;
}

/** A rating with what it rated, as the feedback listing shows it. */
export interface FeedbackView extends FeedbackRecord {
  question: string | null;
  currentPath: string | null;
}

/** A reader in a browser (the widget's page-view beacon), or a machine Quire served (MCP, OpenAI-compatible, llms.txt, page and search endpoints). */
export type Traffic = 'human' | 'ai';

/** One view of a path; `visitor` is the hash under the day's salt, never an address. */
export interface PageViewRecord {
  domainId: string;
  at: number;
  path: string;
  traffic: Traffic;
  visitor: string;
}

/** What a view is recorded from; the address and user agent only feed the visitor hash. */
export interface PageViewInput {
  domainId: string;
  path: string;
  traffic: Traffic;
  ip: string;
  userAgent: string;
}

export interface TrafficCount {
  human: number;
  ai: number;
  /** Views: human + ai. Visitors: distinct over both (a visitor seen as both counts once). */
  total: number;
}

/** Views or visitors of a period: the whole site, each path (most first) and each UTC day (oldest first). */
export interface TrafficReport {
  totals: TrafficCount;
  paths: Array<TrafficCount & { path: string }>;
  days: Array<TrafficCount & { day: number }>;
}

/** Answers of one UTC day. */
export interface AnswerDay {
  day: number;
  total: number;
  unanswered: number;
}

export type AnalyticsEvent =
  | { kind: 'answer'; record: AnswerRecord }
  | { kind: 'search'; record: SearchRecord }
  | { kind: 'click'; record: SearchClick }
  | { kind: 'view'; record: PageViewRecord };

/** A time range, both ends inclusive, in milliseconds. */
export interface TimeRange {
  from: number;
  to: number;
}

/** A position in a newest-first listing: the last item's time and id. */
export interface ListCursor {
  at: number;
  id: string;
}

export interface ListQuery extends TimeRange {
  limit: number;
  after?: ListCursor | undefined;
}

export interface ListPage<T> {
  items: T[];
  /** The last item's position when more items follow, else undefined. */
  next: ListCursor | undefined;
}

export interface CallerStat {
  caller: CallerKind;
  surface: AnswerSurface;
  total: number;
  answered: number;
  unanswered: number;
}

export interface CategoryStat {
  category: string | null;
  total: number;
  unanswered: number;
}

/** One query of the period: its spellings that differ only in case and spacing together, shown as the most searched one. */
export interface SearchStat {
  query: string;
  searches: number;
  averageHits: number;
  /** Searches of this query with at least one reported click. */
  clickedSearches: number;
  topClickedPage: string | null;
  lastSearchedAt: number;
}

export interface PageFeedback {
  path: string | null;
  helpful: number;
  notHelpful: number;
}

/** A question for the coverage gaps: unanswered, or rated not helpful. */
export interface GapQuestion {
  record: AnswerRecord;
  notHelpful: boolean;
}

/** An agent job started to fill a coverage gap. */
export interface GapJob {
  domainId: string;
  gapId: string;
  projectId: string;
  jobId: string;
  at: number;
}

export interface AnalyticsStore {
  /** Writes a batch of recorded events in one transaction; a click is kept before its search is written, and counted once it is. */
  write(events: AnalyticsEvent[]): Promise<void>;
  /** Stores a rating, replacing an earlier one of the same message. */
  putFeedback(feedback: FeedbackRecord): Promise<void>;
  listAnswers(domainId: string, query: ListQuery): Promise<ListPage<AnswerRecord>>;
  /** The answers of one thread, oldest first. */
  threadAnswers(domainId: string, threadId: string): Promise<AnswerRecord[]>;
  /** One recorded answer by its id. */
  getAnswer(domainId: string, id: string): Promise<AnswerRecord | undefined>;
  /** Answers per UTC day of every day the range touches, oldest first. */
  answerDays(domainId: string, range: TimeRange): Promise<AnswerDay[]>;
  /** Page views of every UTC day the range touches. */
  viewStats(domainId: string, range: TimeRange): Promise<TrafficReport>;
  /** Visitors, distinct per UTC day (hashes rotate daily), summed over the days the range touches. */
  visitorStats(domainId: string, range: TimeRange): Promise<TrafficReport>;
  /** The salt of `day` (made on first use, shared by every replica); every earlier day's salt is deleted. */
  visitorSalt(day: number): Promise<string>;
  callerStats(domainId: string, range: TimeRange): Promise<CallerStat[]>;
  /** Answers per category, most asked first. */
  categoryStats(domainId: string, range: TimeRange): Promise<CategoryStat[]>;
  /** Per query (case and spacing aside), most searched first. */
  searchStats(domainId: string, range: TimeRange): Promise<SearchStat[]>;
  listFeedback(domainId: string, query: ListQuery): Promise<ListPage<FeedbackView>>;
  /** The ratings of one thread's answers. */
  threadFeedback(domainId: string, threadId: string): Promise<FeedbackRecord[]>;
  feedbackByPage(domainId: string, range: TimeRange): Promise<PageFeedback[]>;
  /** Unanswered answers and answers rated not helpful, newest first, at most `max`. */
  gapQuestions(domainId: string, range: TimeRange, max: number): Promise<GapQuestion[]>;
  putGapJob(job: GapJob): Promise<void>;
  gapJobs(domainId: string): Promise<GapJob[]>;
  /** Deletes everything recorded before `before`; returns how many records went. */
  purge(before: number): Promise<number>;
  ping(): Promise<void>;
}
