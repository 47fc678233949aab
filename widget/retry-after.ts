import type { WidgetWords } from './words.js';

const MINUTE = 60;
const HOUR = 3600;

/** `n` seconds or minutes, written out in the widget's language ("20 seconds", "20 secondes", "20 秒"). */
const count = (n: number, unit: 'second' | 'minute', lang: string) => new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'long' }).format(n);

/** The moment a `Retry-After` names (delay-seconds, or an HTTP date), or undefined when it names none. */
function retryAt(retryAfter: string | null, now: Date): Date | undefined {
  if (!retryAfter) return undefined;
  const at = /^\d+$/.test(retryAfter.trim()) ? now.getTime() + Number(retryAfter) * 1000 : Date.parse(retryAfter);
  return Number.isNaN(at) ? undefined : new Date(at);
}

/**
 * When a reader may ask again, from a 429's `Retry-After`, said for a person in the widget's language:
 * "in 20 seconds", "in 5 minutes", and past an hour the clock time ("after 14:35", "after 09:10 tomorrow"),
 * which reads better than hours and minutes counted down.
 */
export function retryWhen(retryAfter: string | null, words: WidgetWords, now = new Date()): string {
  const at = retryAt(retryAfter, now);
  if (!at) return words.later;
  const seconds = Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
  if (seconds < MINUTE) return words.within(count(seconds, 'second', words.lang));
  if (seconds <= HOUR) return words.within(count(Math.ceil(seconds / MINUTE), 'minute', words.lang));
  const clock = at.toLocaleTimeString(words.lang, { hour: '2-digit', minute: '2-digit' });
  const days = Math.round((new Date(at).setHours(0, 0, 0, 0) - new Date(now).setHours(0, 0, 0, 0)) / (24 * HOUR * 1000));
  if (days === 0) return words.after(clock);
  if (days === 1) return words.after(words.tomorrow(clock));
  return words.after(at.toLocaleString(words.lang, { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' }));
}
