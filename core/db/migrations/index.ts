import { tenants } from './001-tenants.js';
import { jobs } from './002-jobs.js';
import { webhooksAndAutomations } from './003-webhooks-automations.js';
import { threadsAndAnalytics } from './004-threads-analytics.js';
import { pullsAndEmbeddings } from './005-pulls-embeddings.js';
import { pageViews } from './006-page-views.js';
import { consoleSessions } from './007-console-sessions.js';
import { clicksByTime } from './008-clicks-by-time.js';
import { retiredIds } from './009-retired-ids.js';
import { clicksBySearch } from './010-clicks-by-search.js';
import { orgDeletion } from './011-org-deletion.js';
import { leases } from './012-leases.js';
import { indexClearing } from './013-index-clearing.js';
import { domainPushSecret } from './014-domain-push-secret.js';
import { projectDeletion } from './015-project-deletion.js';
import { domainPoll } from './016-domain-poll.js';
import { domainLanguage } from './017-domain-language.js';
import type { QuireMigration } from './migration.js';

export type { Dialect, QuireMigration } from './migration.js';

/** The schema's steps, in the order they run. Append; never reorder or edit one that shipped. */
export const MIGRATIONS: readonly QuireMigration[] = [tenants, jobs, webhooksAndAutomations, threadsAndAnalytics, pullsAndEmbeddings, pageViews, consoleSessions, clicksByTime, retiredIds, clicksBySearch, orgDeletion, leases, indexClearing, domainPushSecret, projectDeletion, domainPoll, domainLanguage];
