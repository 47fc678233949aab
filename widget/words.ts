import { TRANSLATIONS } from './translations.js';

/** The widget's own words in one language: its controls, its status messages and its errors. */
export interface WidgetWords {
  /** The BCP 47 tag they are written in: the widget's `lang`, and the locale its numbers and times are formatted in. */
  lang: string;
  title: string;
  newConversation: string;
  deleteConversation: string;
  close: string;
  conversation: string;
  empty: string;
  resumed: string;
  question: string;
  placeholder: string;
  send: string;
  answering: string;
  sources: string;
  relatedPages: string;
  /** The text of a link to an image that has no alt text. */
  image: string;
  /** Said after a link's name by assistive technology: every link in an answer opens in a new tab. */
  newTab: string;
  deleted: string;
  notDeleted: string;
  unreachable: string;
  /** A stream that ended in an error and said none. */
  incomplete: string;
  /** A failure with no code the widget knows: its HTTP status. */
  httpFailure: (status: number) => string;
  /** A 429: `when` is one of `later`, `within`, `after` below. */
  tooMany: (when: string) => string;
  later: string;
  /** `amount` is a number with its unit ("20 seconds"), as `Intl.NumberFormat` writes it in `lang`. */
  within: (amount: string) => string;
  /** `moment` is a clock time, `tomorrow(clock)`, or a date and time. */
  after: (moment: string) => string;
  tomorrow: (clock: string) => string;
  /** A 503 `unavailable`: `when` as for `tooMany`. */
  unavailable: (when: string) => string;
  /** 504 `timeout`. */
  timedOut: string;
  /** 413 `payload_too_large`. */
  tooLong: string;
  /** 400 `invalid_request`. */
  notAccepted: string;
  /** 401, 403 or 404: the site's key or domain is wrong, which the reader cannot mend. */
  misconfigured: string;
  /** 500 `internal`. */
  failed: string;
  /** Error parts of the stream: `model_rate_limited`, `model_failed`, `output_limit`, `content_filter`. */
  modelBusy: string;
  modelFailed: string;
  outputLimit: string;
  contentFilter: string;
  /** The summary of the folded server's message (in English) under an error. */
  serverSaid: string;
}

export const ENGLISH: WidgetWords = {
  lang: 'en',
  title: 'Ask AI',
  newConversation: 'New conversation',
  deleteConversation: 'Delete conversation',
  close: 'Close',
  conversation: 'Conversation',
  empty: 'Ask a question about the documentation.',
  resumed: 'Resumed your earlier conversation: the assistant remembers what you asked. Choose “New conversation” to start afresh.',
  question: 'Your question',
  placeholder: 'Ask a question…',
  send: 'Send',
  answering: 'Answering…',
  sources: 'Sources',
  relatedPages: 'Related pages',
  image: 'image',
  newTab: '(opens in a new tab)',
  deleted: 'Your conversation was deleted.',
  notDeleted: 'The conversation could not be deleted; please try again.',
  unreachable: 'The assistant could not be reached.',
  incomplete: 'The answer could not be completed.',
  httpFailure: (status) => `The assistant could not answer (HTTP ${status}).`,
  tooMany: (when) => `Too many questions right now; please try again ${when}.`,
  later: 'later',
  within: (amount) => `in ${amount}`,
  after: (moment) => `after ${moment}`,
  tomorrow: (clock) => `${clock} tomorrow`,
  unavailable: (when) => `The assistant is unavailable right now; please try again ${when}.`,
  timedOut: 'The assistant took too long to answer; please try again.',
  tooLong: 'Your question is too long; please shorten it.',
  notAccepted: 'The assistant could not accept this question.',
  misconfigured: 'The assistant is not set up correctly on this site.',
  failed: 'The assistant ran into a problem; please try again later.',
  modelBusy: 'The language model is busy; please try again in a moment.',
  modelFailed: 'The language model could not answer; please try again.',
  outputLimit: 'The answer was cut off: it reached the language model’s length limit.',
  contentFilter: 'The rest of the answer was withheld by the language model’s content filter.',
  serverSaid: 'Details (in English)',
};

const LANGUAGES = new Map<string, WidgetWords>([['en', ENGLISH], ...Object.entries(TRANSLATIONS)]);

/** The languages the widget speaks, by the key `languageKey` gives. */
export const WIDGET_LANGUAGES = [...LANGUAGES.keys()];

/** Chinese regions that write Traditional characters when the tag names no script. */
const TRADITIONAL_REGIONS = new Set(['tw', 'hk', 'mo']);

/**
 * The key a BCP 47 tag is matched on, whatever its case: its primary language subtag (`pt-BR`, `PT-pt` and `pt` are
 * `pt`), and for Chinese its script: `zh-hant` for the script subtag Hant, or without a script for Taiwan, Hong Kong
 * or Macao (`zh-TW`, `zh-HK`, `zh-MO`); `zh` (Simplified) for any other (`zh`, `zh-CN`, `zh-SG`, `zh-Hans`).
 */
export function languageKey(tag: string): string {
  const [primary = '', ...rest] = tag.trim().toLowerCase().split(/[-_]/);
  if (primary !== 'zh') return primary;
  // Up to a singleton (`-x-…`, `-u-…`): extensions and private use say nothing of the script.
  const end = rest.findIndex((subtag) => subtag.length === 1);
  const subtags = end < 0 ? rest : rest.slice(0, end);
  const script = subtags.find((subtag) => /^[a-z]{4}$/.test(subtag));
  const region = subtags.find((subtag) => /^([a-z]{2}|\d{3})$/.test(subtag));
  const traditional = script ? script === 'hant' : region !== undefined && TRADITIONAL_REGIONS.has(region);
  return traditional ? 'zh-hant' : 'zh';
}

/**
 * The words for the first of these BCP 47 tags (`data-language`, then the page's `<html lang>`)
 * whose language the widget speaks, matched on `languageKey`; else English.
 */
export function chooseWords(...tags: Array<string | undefined>): WidgetWords {
  for (const tag of tags) {
    const words = tag === undefined ? undefined : LANGUAGES.get(languageKey(tag));
    if (words) return words;
  }
  return ENGLISH;
}
