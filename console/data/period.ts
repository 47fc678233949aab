/** A report's period as the console's date fields hold it: `YYYY-MM-DD`, both days included. */
export interface Period {
  dateFrom: string;
  dateTo: string;
}

const DAY_MS = 86_400_000;

/**
 * The period as query parameters. Mintlify's `dateTo` is exclusive, so the
 * day after the last one is sent; a server that reads a date-only `dateTo` as
 * its whole day then also counts that day, which has not happened yet.
 */
export function periodQuery(period: Period): Period {
  const next = Date.parse(`${period.dateTo}T00:00:00Z`) + DAY_MS;
  return { dateFrom: period.dateFrom, dateTo: Number.isNaN(next) ? period.dateTo : new Date(next).toISOString().slice(0, 10) };
}
