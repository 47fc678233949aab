import type { DomainSummary } from '../api/admin.js';

/** The docs domain whose analytics the pages show. */
export function DomainPicker({ domains, value, onChange }: { domains: DomainSummary[]; value: string; onChange: (id: string) => void }) {
  if (domains.length === 0) return <p class="hint">No domain yet: add one in Settings.</p>;
  return (
    <label class="domain-picker">
      Domain
      <select value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {domains.map((d) => (
          <option key={d.id} value={d.id}>
            {d.id}
          </option>
        ))}
      </select>
    </label>
  );
}
