/**
 * When each of a job's events happened, as its list shows it: the time of day in UTC, to the
 * second, and the date too on the first event and wherever the day changes from the event before.
 */
export function eventTimes(times: readonly string[]): string[] {
  let day = '';
  return times.map((iso) => {
    const d = new Date(iso);
    if (Number.isNaN(d.getTime())) return iso;
    const clock = `${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', timeZone: 'UTC' })} UTC`;
    const sameDay = d.toISOString().slice(0, 10) === day;
    day = d.toISOString().slice(0, 10);
    return sameDay ? clock : `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}, ${clock}`;
  });
}
