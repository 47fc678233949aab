import * as v from 'valibot';

/** Shapes of the console's session routes; the OpenAPI document follows them. */

export const SignInBody = v.strictObject({
  key: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(200, 'must be at most 200 characters'), v.description('An admin key (`quire_…`).')),
});

export const SessionView = v.object({
  organisation: v.object({ id: v.string(), name: v.string() }),
  csrfToken: v.pipe(v.string(), v.description('Send it back as `X-CSRF-Token` with every state-changing request made with the cookie.')),
  expiresAt: v.pipe(v.string(), v.isoTimestamp(), v.description('When the session ends (never after the admin key expires).')),
  publicUrl: v.pipe(
    v.nullable(v.string()),
    v.description('`QUIRE_PUBLIC_URL`, without a trailing slash: the start of every URL the console shows for copying (the widget tag, the push hook). `null` when unset: the console uses the page’s origin.'),
  ),
});

export type SessionViewOut = v.InferOutput<typeof SessionView>;
