/**
 * What the domain form sends, from the values typed (blank ones left out, see formValues): one
 * form creates a domain and edits one, so the two cannot drift apart in what they offer.
 */
import type { ResponseOf } from '../api/responses.js';
import { lines } from './form-text.js';

/** A domain as the admin API answers it (the Settings page's `Domain`). */
type Domain = ResponseOf<'adminGetDomain'>;

/**
 * The poll interval as typed, as the API takes it: empty (or "off") stops polling; a number is sent
 * as one, in range or not; anything else is sent as typed, so the API's refusal shows beside the field.
 */
export function pollMinutesOf(text: string | undefined): number | string | null {
  if (!text || text.toLowerCase() === 'off') return null;
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : text;
}

/**
 * A new domain's body (`POST /v2/admin/domains`): only what was typed, so the API applies its
 * defaults to the rest (no language: English; no origins: any; not polled; hidden pages left out).
 */
export function newDomainBody(values: Record<string, string>): Record<string, unknown> {
  const { allowedOrigins, pollMinutes, includeHidden, ...typed } = values;
  const origins = lines(allowedOrigins);
  const poll = pollMinutesOf(pollMinutes);
  return {
    ...typed,
    ...(includeHidden ? { includeHidden: true } : {}),
    ...(origins.length > 0 ? { allowedOrigins: origins } : {}),
    ...(poll !== null ? { pollMinutes: poll } : {}),
  };
}

/**
 * A domain's change (`PATCH /v2/admin/domains/{domainId}`) from its whole form: a field left empty
 * clears it (null) or, where the API has no "not set", is sent empty so its refusal shows beside it.
 */
export function domainPatch(values: Record<string, string>, before: Domain): Record<string, unknown> {
  const origins = lines(values.allowedOrigins);
  const pollMinutes = pollMinutesOf(values.pollMinutes);
  const language = values.language ?? null;
  return {
    // Sent back as shown: credentials shown as `***` keep the stored ones, and an unchanged path is no new location.
    source: values.source ?? '',
    baseUrl: values.baseUrl ?? '',
    // Empty: the repository's default branch; the root of the repository.
    branch: values.branch ?? null,
    docsPath: values.docsPath ?? '',
    // A checkbox left unticked is not in the form at all.
    includeHidden: values.includeHidden !== undefined,
    // An empty list is "any origin": the API says so with null.
    allowedOrigins: origins.length > 0 ? origins : null,
    supportContact: values.supportContact ?? null,
    // Empty: the domain takes no pushes.
    pushSecretEnv: values.pushSecretEnv ?? null,
    // Sent only when changed: a change sets the domain's schedule in Temporal, which other edits need not wait for.
    ...(pollMinutes !== (before.pollMinutes ?? null) ? { pollMinutes } : {}),
    // Sent only when changed: a change re-indexes the domain.
    ...(language !== (before.language ?? null) ? { language } : {}),
  };
}
