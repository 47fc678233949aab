// Each index serves one query of the analytics API; the bench (bench/analytics.ts) measures them.
// answer_days holds the answers' daily counts, written with them, so counts over a month read a few hundred rows.
/** The tables of `analytics.db`. */
export const ANALYTICS_SCHEMA = `
  CREATE TABLE answers (
    domain_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at INTEGER NOT NULL,
    thread_id TEXT,
    caller TEXT NOT NULL,
    surface TEXT NOT NULL,
    resolution TEXT NOT NULL,
    category TEXT,
    body TEXT NOT NULL,
    PRIMARY KEY (domain_id, id)
  );
  CREATE INDEX answers_newest_first ON answers (domain_id, at DESC, id DESC);
  CREATE INDEX answers_by_caller ON answers (domain_id, at, caller, surface, resolution);
  CREATE INDEX answers_by_category ON answers (domain_id, at, category, resolution);
  CREATE INDEX answers_unanswered ON answers (domain_id, resolution, at);
  CREATE INDEX answers_of_thread ON answers (domain_id, thread_id, at);
  CREATE INDEX answers_by_age ON answers (at);
  CREATE TABLE answer_days (
    domain_id TEXT NOT NULL,
    day INTEGER NOT NULL,
    caller TEXT NOT NULL,
    surface TEXT NOT NULL,
    category TEXT NOT NULL,
    resolution TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (domain_id, day, caller, surface, category, resolution)
  );
  CREATE TABLE searches (
    domain_id TEXT NOT NULL,
    id TEXT NOT NULL,
    at INTEGER NOT NULL,
    query TEXT NOT NULL,
    hits INTEGER NOT NULL,
    caller TEXT NOT NULL,
    clicks INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (domain_id, id)
  );
  CREATE INDEX searches_by_time ON searches (domain_id, at);
  CREATE INDEX searches_by_age ON searches (at);
  CREATE TABLE clicks (
    domain_id TEXT NOT NULL,
    search_id TEXT NOT NULL,
    query TEXT NOT NULL,
    path TEXT NOT NULL,
    at INTEGER NOT NULL
  );
  CREATE INDEX clicks_by_query ON clicks (domain_id, query, at);
  CREATE INDEX clicks_by_age ON clicks (at);
  CREATE TABLE feedback (
    domain_id TEXT NOT NULL,
    message_id TEXT NOT NULL,
    thread_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    helpful INTEGER NOT NULL,
    comment TEXT,
    PRIMARY KEY (domain_id, message_id)
  );
  CREATE INDEX feedback_newest_first ON feedback (domain_id, at DESC, message_id DESC);
  CREATE INDEX feedback_by_age ON feedback (at);
  CREATE TABLE gap_jobs (
    domain_id TEXT NOT NULL,
    gap_id TEXT NOT NULL,
    project_id TEXT NOT NULL,
    job_id TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (domain_id, job_id)
  );
`;
