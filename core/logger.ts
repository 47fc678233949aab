import pino, { type Logger } from 'pino';
import { logMixin } from './telemetry/log-context.js';

export type { Logger };

/**
 * Structured JSON logs. Anything that looks like a credential is redacted by
 * path, and `scrubSecrets` masks keys and tokens inside free-form strings: the
 * message, every string field of the line, and an error's message, stack and
 * causes (an error's message can quote a URL with its credentials, or a key).
 * Each line carries the trace and the fields bound by `withLogFields`.
 */
export function createLogger(level: string, name: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: [
          'req.headers.authorization',
          'headers.authorization',
          'authorization',
          '*.apiKey',
          '*.token',
          '*.secret',
          'apiKey',
          'token',
          'secret',
          // Temporal's activity log lines carry the task token: a credential for completing the activity.
          'taskToken',
          '*.taskToken',
        ],
        censor: '[redacted]',
      },
      formatters: { level: (label) => ({ level: label }), log: scrubFields },
      serializers: { err: (err: unknown) => scrubDeep(pino.stdSerializers.err(err as Error)) },
      // trace_id/span_id of the active span, and the request, job and workflow a line belongs to.
      mixin: logMixin,
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === 'string' ? scrubSecrets(a) : a)) as typeof args;
          method.apply(this, scrubbed);
        },
      },
    },
    destination,
  );
}

const SECRET_PATTERNS = [
  /quire_(?:dsc_)?[A-Za-z0-9_-]{20,}/g,
  // Thread keys, pull request view tokens, generated webhook secrets.
  /(?:tk|pv|whsec)_[A-Za-z0-9_-]{20,}/g,
  /gh[pousr]_[A-Za-z0-9]{20,}/g,
  /github_pat_[A-Za-z0-9_]{20,}/g,
  /glpat-[A-Za-z0-9_-]{20,}/g,
  /sk-[A-Za-z0-9_-]{16,}/g,
  // user:password@ of any URL (https, postgres, redis with an empty user…).
  /([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]*:[^/\s@]+@/gi,
  /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi,
  // A credential in a URL's query (GitLab's ?private_token=, ?access_token=, signed links).
  /([?&](?:private_token|access_token|token|api_key|apikey|password|secret|sig|signature)=)[^&#\s]+/gi,
  /(Basic\s+)[A-Za-z0-9+/=]{8,}/gi,
];

/** Masks API keys, tokens and URL credentials in a string. */
export function scrubSecrets(text: string): string {
  let out = text;
  for (const re of SECRET_PATTERNS) {
    out = out.replace(re, (_m, keep?: string) => (typeof keep === 'string' ? `${keep}[redacted]` : '[redacted]'));
  }
  return out;
}

/** The line's own string fields, scrubbed; objects are left to their serializers (an error's below). */
function scrubFields(fields: Record<string, unknown>): Record<string, unknown> {
  let out = fields;
  for (const key in fields) {
    const value = fields[key];
    if (typeof value !== 'string') continue;
    const scrubbed = scrubSecrets(value);
    if (scrubbed === value) continue;
    if (out === fields) out = { ...fields };
    out[key] = scrubbed;
  }
  return out;
}

/** Every string in a serialized error (message, stack, its causes'), scrubbed. */
function scrubDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (typeof value !== 'object' || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = scrubDeep(v, depth + 1);
  return out;
}
