import * as v from 'valibot';
import { PullRecordSchema } from '../../core/forge/index.js';
import { AUTHENTICATED_GET_ERRORS } from '../openapi/components.js';
import type { OperationSpec } from '../openapi/operation.js';
import type { Schema } from '../openapi/types.js';

/** A pull request as GET answers it in JSON: the record (core/forge/pull-store.ts) without its token hash, and the diff computed when read. */
export const PullView = v.object({ ...v.omit(PullRecordSchema, ['viewTokenHash']).entries, diff: v.string() });
export type PullView = v.InferOutput<typeof PullView>;

const PullParams = v.object({
  projectId: v.pipe(v.string(), v.minLength(1), v.description('A project of the key’s organisation.')),
  number: v.pipe(v.string(), v.minLength(1), v.description('The pull request number.')),
});
const PullQuery = v.object({ token: v.optional(v.pipe(v.string(), v.description('The view token of the prLink (this one pull request only).'))) });

const stringHeader = (description: string): Schema => ({ description, schema: { type: 'string' } });
/** An error answered as JSON, or to a browser (`Accept: text/html`) that has no key as the sign-in page. */
const orSignInPage: Record<string, Schema> = {
  'application/json': { schema: { $ref: '#/components/schemas/Error' } },
  'text/html': { schema: { type: 'string', description: 'The sign-in page: it explains the link and asks for an admin key.' } },
};

/** The local forge's pull request page (index.ts). */
export const pullsOperations: OperationSpec[] = [
  {
    method: 'get',
    path: '/forge/{projectId}/pulls/{number}',
    operationId: 'getLocalPull',
    summary: 'A pull request of the embedded (local) forge: the `prLink` of its jobs',
    description:
      "The job's prLink carries `?token=`: it opens this one pull request in a browser, no key needed. Without a token, an admin key of the " +
      "project's organisation. JSON by default; an HTML page for browsers (`Accept: text/html`: the job's title, readable dates, each turn's " +
      'summary and own request as Markdown rendered safely, how to fetch and merge the branch, and the diff). The diff is computed from git ' +
      'when read. A browser with no key and no token, or with a token that opens nothing, gets a sign-in page (401 or 404) instead of JSON.',
    security: [{}, { adminKey: [] }],
    params: { path: PullParams, query: PullQuery },
    responses: {
      200: {
        description: 'The pull request',
        headers: {
          'Content-Security-Policy': stringHeader('Nothing runs on the page, and it loads nothing but inline styles and images.'),
          'Referrer-Policy': stringHeader('`no-referrer`: the token never leaves in a Referer.'),
          'Cache-Control': stringHeader('`private, no-store`.'),
        },
        body: PullView,
        content: { 'text/html': { schema: { type: 'string' } } },
      },
      401: {
        description: 'No token, and no (or an unknown or revoked) key (`unauthorized`).',
        headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
        content: orSignInPage,
      },
      404: { description: 'Unknown project or pull request, another organisation’s, or a wrong token (`not_found`).', content: orSignInPage },
    },
    errors: AUTHENTICATED_GET_ERRORS,
  },
];
