const MINUTE = 60;
const HOUR = 3600;

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** The moment a `Retry-After` names (delay-seconds, or an HTTP date), or undefined when it names none. */
function retryAt(retryAfter: string | null, now: Date): Date | undefined {
  if (!retryAfter) return undefined;
  const at = /^\d+$/.test(retryAfter.trim()) ? now.getTime() + Number(retryAfter) * 1000 : Date.parse(retryAfter);
  return Number.isNaN(at) ? undefined : new Date(at);
}

/**
 * When a reader may ask again, from a 429's `Retry-After`, said for a person: "in 20 seconds",
 * "in 5 minutes", and past an hour the reader's clock time ("after 14:35", "after 09:10 tomorrow"),
 * which reads better than hours and minutes counted down.
 */
export function retryWhen(retryAfter: string | null, now = new Date()): string {
  const at = retryAt(retryAfter, now);
  if (!at) return 'later';
  const seconds = Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
  if (seconds < MINUTE) return `in ${count(seconds, 'second')}`;
  if (seconds <= HOUR) return `in ${count(Math.ceil(seconds / MINUTE), 'minute')}`;
  const clock = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  const days = Math.round((new Date(at).setHours(0, 0, 0, 0) - new Date(now).setHours(0, 0, 0, 0)) / (24 * HOUR * 1000));
  if (days === 0) return `after ${clock}`;
  if (days === 1) return `after ${clock} tomorrow`;
  return `after ${at.toLocaleDateString(undefined, { day: 'numeric', month: 'long' })}, ${clock}`;
}
