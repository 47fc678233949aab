import pino, { type Logger } from 'pino';
import { logMixin } from './telemetry/log-context.js';

export type { Logger };

/**
 * Structured JSON logs. Anything that looks like a credential is redacted by
 * path, and `scrubSecrets` masks keys and tokens inside free-form strings: the
 * message, every string field of the line, and an error's message, stack and
 * causes (an error's message can quote a URL with its credentials, or a key).
 * Each line carries the trace and the fields bound by `withLogFields`. `secrets` are values masked
 * wherever they appear, whatever their shape (`secretValuesOf` the environment): a provider that
 * quotes the key it was sent in its error must not put it in a log line.
 */
export function createLogger(level: string, name: string, destination?: pino.DestinationStream, secrets: readonly string[] = []): Logger {
  const scrub = secretScrubber(secrets);
  const scrubFields = fieldsScrubber(scrub);
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
      serializers: { err: (err: unknown) => scrubDeep(pino.stdSerializers.err(err as Error), scrub) },
      // trace_id/span_id of the active span, and the request, job and workflow a line belongs to.
      mixin: logMixin,
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === 'string' ? scrub(a) : a)) as typeof args;
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

/** The shortest value masked as a configured secret: shorter ones (a port, `true`) would mask ordinary text. */
const MIN_SECRET_CHARS = 8;
/** Settings whose value is a secret, by name: API keys, tokens, secrets, passwords (a project's token variable too, `ACME_GITHUB_TOKEN`, `GITHUB_TOKEN_ACME`). */
const SECRET_NAME = /(?:^|_)(?:API_?KEY|KEY|TOKEN|SECRET|PASSWORD|PASSWD)(?:_|$)/i;

/**
 * The secret values of a process's environment: those of variables named as secrets, and the
 * password of every URL-valued one (a database's, Redis's, a proxy's), as written and decoded.
 */
export function secretValuesOf(env: NodeJS.ProcessEnv): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    // A file's path (TEMPORAL_TLS_KEY) says where a secret is, not what it is.
    if (SECRET_NAME.test(name) && !value.startsWith('/')) values.add(value);
    if (!value.includes('://') || !URL.canParse(value)) continue;
    const { password } = new URL(value);
    if (password) values.add(password).add(decodeURIComponent(password));
  }
  return [...values].filter((v) => v.length >= MIN_SECRET_CHARS);
}

/** `scrubSecrets`, then every one of `secrets` masked where it appears. */
function secretScrubber(secrets: readonly string[]): (text: string) => string {
  const known = secrets.filter((s) => s.length >= MIN_SECRET_CHARS);
  if (known.length === 0) return scrubSecrets;
  // Longest first, so a secret that contains another is masked whole.
  const pattern = new RegExp(known.sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  return (text) => scrubSecrets(text).replace(pattern, '[redacted]');
}

/** The line's own string fields, scrubbed; objects are left to their serializers (an error's below). */
function fieldsScrubber(scrub: (text: string) => string) {
  return (fields: Record<string, unknown>): Record<string, unknown> => {
    let out = fields;
    for (const key in fields) {
      const value = fields[key];
      if (typeof value !== 'string') continue;
      const scrubbed = scrub(value);
      if (scrubbed === value) continue;
      if (out === fields) out = { ...fields };
      out[key] = scrubbed;
    }
    return out;
  };
}

/** Every string in a serialized error (message, stack, its causes'), scrubbed. */
function scrubDeep(value: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (typeof value !== 'object' || value === null || depth > 8) return value;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = scrubDeep(v, scrub, depth + 1);
  return out;
}
