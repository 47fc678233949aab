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
  couldNotAnswer: (error: string) => string;
  httpFailure: (status: number) => string;
  /** A 429: `when` is one of `later`, `within`, `after` below. */
  tooMany: (when: string) => string;
  later: string;
  /** `amount` is a number with its unit ("20 seconds"), as `Intl.NumberFormat` writes it in `lang`. */
  within: (amount: string) => string;
  /** `moment` is a clock time, `tomorrow(clock)`, or a date and time. */
  after: (moment: string) => string;
  tomorrow: (clock: string) => string;
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
  couldNotAnswer: (error) => `The assistant could not answer: ${error}`,
  httpFailure: (status) => `The assistant could not answer (HTTP ${status}).`,
  tooMany: (when) => `Too many questions right now; please try again ${when}.`,
  later: 'later',
  within: (amount) => `in ${amount}`,
  after: (moment) => `after ${moment}`,
  tomorrow: (clock) => `${clock} tomorrow`,
};

const LANGUAGES = new Map<string, WidgetWords>([['en', ENGLISH], ...Object.entries(TRANSLATIONS)]);

/** The languages the widget speaks, by primary language subtag. */
export const WIDGET_LANGUAGES = [...LANGUAGES.keys()];

/**
 * The words for the first of these BCP 47 tags (`data-language`, then the page's `<html lang>`)
 * whose language the widget speaks, matched on the primary subtag whatever the case or region
 * (`pt-BR`, `PT-pt` and `pt` are Portuguese); else English.
 */
export function chooseWords(...tags: Array<string | undefined>): WidgetWords {
  for (const tag of tags) {
    const words = LANGUAGES.get(tag?.trim().split(/[-_]/)[0]?.toLowerCase() ?? '');
    if (words) return words;
  }
  return ENGLISH;
}
