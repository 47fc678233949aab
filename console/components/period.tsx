import { useEffect, useState } from 'preact/hooks';
import type { Period } from '../api/analytics.js';
import { periodProblem } from '../data/period.js';

/** What a report page is given: the console's one period (see the shell), and how to choose another. */
export interface PeriodProps {
  period: Period;
  onPeriodChange: (period: Period) => void;
}

/**
 * Two labelled date fields for a report's period. A change is passed on only when the period it
 * makes can be reported; until then the fields keep what is typed and say what is missing.
 */
export function PeriodPicker({ period, onChange }: { period: Period; onChange: (p: Period) => void }) {
  const [draft, setDraft] = useState(period);
  // A period chosen elsewhere (Back to a URL naming another) replaces what the fields hold.
  useEffect(() => setDraft(period), [period.dateFrom, period.dateTo]);
  const problem = periodProblem(draft);
  const change = (next: Period) => {
    setDraft(next);
    if (!periodProblem(next)) onChange(next);
  };
  return (
    <fieldset class="period" aria-describedby={problem ? 'period-problem' : undefined}>
      <legend>Period</legend>
      <label>
        From
        <input type="date" value={draft.dateFrom} max={period.dateTo} onChange={(e) => change({ ...draft, dateFrom: e.currentTarget.value })} />
      </label>
      <label>
        To
        <input type="date" value={draft.dateTo} min={period.dateFrom} onChange={(e) => change({ ...draft, dateTo: e.currentTarget.value })} />
      </label>
      {problem ? (
        <p id="period-problem" class="hint" role="status">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}
