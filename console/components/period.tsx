import type { Period } from '../api/analytics.js';

const DAY_MS = 86_400_000;

/** The last `days` days up to today (UTC), both included. */
export function lastDays(days: number, now = new Date()): Period {
  return { dateFrom: new Date(now.getTime() - (days - 1) * DAY_MS).toISOString().slice(0, 10), dateTo: now.toISOString().slice(0, 10) };
}

/** Two labelled date fields for a report's period. */
export function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  return (
    <fieldset class="period">
      <legend>Period</legend>
      <label>
        From
        <input type="date" value={period.dateFrom} max={period.dateTo} onChange={(e) => onChange({ ...period, dateFrom: e.currentTarget.value })} />
      </label>
      <label>
        To
        <input type="date" value={period.dateTo} min={period.dateFrom} onChange={(e) => onChange({ ...period, dateTo: e.currentTarget.value })} />
      </label>
    </fieldset>
  );
}
