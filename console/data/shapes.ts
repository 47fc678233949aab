import type { ResponseOf } from '../api/responses.js';

/**
 * The analytics responses the console reads, in the shapes of Mintlify's analytics export API
 * (`analytics.openapi.json`, and its `views` and `visitors` endpoints) with Quire's own fields: as
 * the API's OpenAPI document declares them (see ../api/responses.ts), named for the pages here.
 */

/** One answer of `GET /v1/analytics/{domain}/assistant` (Mintlify's conversation). */
export type ConversationsResponse = ResponseOf<'analyticsConversations'>;
export type Conversation = ConversationsResponse['conversations'][number];
export type Source = Conversation['sources'][number];

/** One rating of `GET /v1/analytics/{domain}/feedback`. */
export type FeedbackResponse = ResponseOf<'analyticsFeedback'>;
export type Feedback = FeedbackResponse['feedback'][number];

/** One search term; in Mintlify's shape `hits` is how often it was searched. */
export type SearchesResponse = ResponseOf<'analyticsSearches'>;
export type SearchStat = SearchesResponse['searches'][number];

/** Page views and visitors, human and AI, per page and (Quire's own) per UTC day with any. */
export type ViewsResponse = ResponseOf<'analyticsViews'>;
export type VisitorsResponse = ResponseOf<'analyticsVisitors'>;
export type PathTraffic = ViewsResponse['views'][number];
export type DayTraffic = ViewsResponse['days'][number];

/** `GET …/assistant/caller-stats`: Mintlify's counts by caller, and Quire's answered counts per day. */
export type CallerStats = ResponseOf<'analyticsCallerStats'>;

/** Mintlify's `AssistantThreadResponse`, each answer with (Quire's own) the pages cited and the reader's rating. */
export type ThreadResponse = ResponseOf<'analyticsThread'>;
export type ThreadMessage = ThreadResponse['messages'][number];

export type GapsResponse = ResponseOf<'analyticsGaps'>;
export type Gap = GapsResponse['gaps'][number];
export type GapJob = Gap['jobs'][number];
/** An example question of a gap, with the thread that asked it (null: asked only through a door that keeps no thread). */
export type GapExample = Gap['examples'][number];
