/**
 * The analytics responses the console reads, in the shapes of Mintlify's
 * analytics export API (`analytics.openapi.json`, and its `views` and
 * `visitors` endpoints) with Quire's own extra fields marked optional, so a
 * server that leaves them out still reads.
 */

export interface Source {
  title: string;
  url: string;
}

/** One answer of `GET /v1/analytics/{domain}/assistant` (Mintlify's conversation). */
export interface Conversation {
  id: string;
  timestamp: string;
  query: string;
  response: string;
  sources: Source[];
  queryCategory: string | null;
  resolutionStatus?: 'answered' | 'unanswered';
  threadId?: string | null;
  pageUrl?: string | null;
}

export interface ConversationsResponse {
  conversations: Conversation[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** One rating of `GET /v1/analytics/{domain}/feedback`. */
export interface Feedback {
  id: string;
  path: string | null;
  comment: string | null;
  createdAt: string | null;
  helpful?: boolean;
  threadId?: string | null;
  messageId?: string | null;
  query?: string | null;
}

export interface FeedbackResponse {
  feedback: Feedback[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * One search term. In Mintlify's shape `hits` is how often it was searched;
 * Quire answered that as `searches` before (and `hits` as the average number
 * of results), so a count reads `searches` when the server sends it.
 */
export interface SearchStat {
  searchQuery: string;
  searches?: number;
  hits: number;
  ctr: number;
  topClickedPage: string | null;
}

export interface SearchesResponse {
  searches: SearchStat[];
  totalSearches: number;
  nextCursor: string | null;
  hasMore: boolean;
}

/** Human, AI and all traffic: Mintlify's `views` and `visitors` count both ways. */
export interface TrafficCount {
  human: number;
  ai: number;
  total: number;
}

export interface PathTraffic extends TrafficCount {
  path: string;
}

/** Quire's own: the counts of one UTC day (`YYYY-MM-DD`); days without any are left out. */
export interface DayTraffic extends TrafficCount {
  date: string;
}

export interface ViewsResponse {
  totals: TrafficCount;
  views: PathTraffic[];
  hasMore: boolean;
  days?: DayTraffic[];
}

export interface VisitorsResponse {
  totals: TrafficCount;
  visitors: PathTraffic[];
  hasMore: boolean;
  days?: DayTraffic[];
}

/** `GET …/assistant/caller-stats`: Mintlify's counts by caller, and Quire's answered counts per day. */
export interface CallerStats {
  total: number;
  answered?: number;
  unanswered?: number;
  days?: Array<{ date: string; total: number; answered: number; unanswered: number }>;
}

/** Mintlify's `AssistantThreadResponse`. */
export interface ThreadMessage {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  /** Quire's own, on answers: the pages cited, and the reader's rating. */
  sources?: Source[];
  feedback?: { helpful: boolean; comment: string | null; createdAt: string } | null;
}

export interface ThreadResponse {
  threadId: string;
  createdAt: string;
  messages: ThreadMessage[];
  /** Quire's own: each answer of the thread as the conversations listing shows it (its sources). */
  conversations?: Conversation[];
}

export interface GapJob {
  jobId: string;
  projectId: string;
  status: string;
  prLink: string | null;
}

/** An example question of a gap, with the thread that asked it (null: asked only through a door that keeps no thread). */
export interface GapExample {
  question: string;
  threadId: string | null;
}

export interface Gap {
  id: string;
  topic: string[];
  count: number;
  unanswered: number;
  notHelpful: number;
  questions: string[];
  examples: GapExample[];
  pages: Source[];
  suggestion: string;
  lastAskedAt: string;
  jobs: GapJob[];
}

export interface GapsResponse {
  gaps: Gap[];
  nextCursor: string | null;
  hasMore: boolean;
}
