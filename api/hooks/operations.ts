import * as v from 'valibot';
import { ERROR_CONTENT } from '../openapi/components.js';
import type { NamedSchemas, OperationSpec } from '../openapi/operation.js';
import { PushBody, PushHookAnswer, PushHookParams } from './schemas.js';

const optionalHeader = (description: string) => v.pipe(v.optional(v.string()), v.description(description));

/** What a push hook's delivery answers, whether it starts a run or not, named in the document (`#/components/schemas/…`). */
export const hooksSchemas: NamedSchemas = { PushHookResult: PushHookAnswer };

/** The push hook (push-router.ts), from the schemas the route validates and answers with. */
export const hooksOperations: OperationSpec[] = [
  {
    method: 'post',
    path: '/v2/hooks/domains/{domainId}/push',
    operationId: 'pushHook',
    summary: "A forge's push to the docs repository: a push to the domain's branch re-indexes it (a run under way is joined)",
    description:
      "Signed with the secret in the API's variable the domain's `pushSecretEnv` names, one of three ways: GitHub's `X-Hub-Signature-256` (HMAC-SHA256 of the raw body; also Gitea, Forgejo, Bitbucket), GitLab's `X-Gitlab-Token`, or `Authorization: Bearer <secret>` with `{\"ref\": \"refs/heads/main\"}`. The body must be `application/json` (GitHub: Content type `application/json`). A push to another branch, a tag, a deleted branch or another event is answered 202 `ignored` with the reason; GitHub's `ping` is answered 200 `pong` once its signature holds.",
    security: [],
    params: {
      path: PushHookParams,
      header: v.object({
        'X-Hub-Signature-256': optionalHeader('GitHub form: `sha256=` and the hex HMAC-SHA256 of the raw body, keyed with the secret.'),
        'X-GitHub-Event': optionalHeader('GitHub form: `push` or `ping`; other events are ignored.'),
        'X-Gitlab-Token': optionalHeader('GitLab form: the secret itself.'),
        'X-Gitlab-Event': optionalHeader('GitLab form: `Push Hook`; other events are ignored.'),
      }),
    },
    body: PushBody,
    responses: {
      200: { description: 'A GitHub `ping` whose signature holds (`pong`).', body: PushHookAnswer },
      202: { description: 'Indexing started or joined (`indexing`, with `runId`), or nothing to index (`ignored`, with `reason`).', body: PushHookAnswer },
      401: { description: 'No signature, token or bearer, or one that does not match the domain’s secret (`invalid_signature`). Nothing is indexed.', content: ERROR_CONTENT },
      404: {
        description: 'Unknown domain, a domain without `pushSecretEnv`, or one whose variable is not set on the API (`not_found`): the same answer, so the hook tells no one which domains exist.',
        content: ERROR_CONTENT,
      },
    },
    errors: [400, 413, 415, 500, 503],
  },
];
