import * as v from 'valibot';

/** Shapes of the push hook; the OpenAPI document follows them. */

export const PushHookParams = v.object({
  domainId: v.pipe(v.string(), v.minLength(1), v.description('A domain with a push secret (`pushSecretEnv`).')),
});

const defaultBranchOf = v.optional(v.nullable(v.looseObject({ default_branch: v.optional(v.nullable(v.string())) })));

/**
 * What Quire reads of a push: GitHub's and GitLab's push events (their other fields are let
 * through unread), or a plain `{"ref": "refs/heads/main"}`.
 */
export const PushBody = v.pipe(
  v.looseObject({
    ref: v.pipe(v.string('must be the pushed ref, such as refs/heads/main'), v.maxLength(1000, 'must be at most 1000 characters'), v.description('`refs/heads/<branch>`, or a bare branch name.')),
    deleted: v.pipe(v.optional(v.nullable(v.boolean())), v.description('GitHub: true when the push deleted the ref.')),
    after: v.pipe(v.optional(v.nullable(v.string())), v.description('The commit the ref now points at; all zeros when the push deleted it (GitLab).')),
    repository: v.pipe(defaultBranchOf, v.description("GitHub: the repository, whose `default_branch` stands for a domain that names no branch.")),
    project: v.pipe(defaultBranchOf, v.description("GitLab: the project, whose `default_branch` stands for a domain that names no branch.")),
  }),
  v.examples([{ ref: 'refs/heads/main', after: '9fceb02d0ae598e95dc970b74767f19372d61af8', repository: { default_branch: 'main' } }]),
);

export const PushHookAnswer = v.object({
  outcome: v.pipe(
    v.picklist(['indexing', 'ignored', 'pong']),
    v.description('`indexing`: a run was started, or the one under way joined; `ignored`: nothing to index (`reason` says why); `pong`: a GitHub `ping`, its signature checked.'),
  ),
  domainId: v.string(),
  branch: v.pipe(v.optional(v.string()), v.description('The branch pushed to, when the delivery was a push to a branch.')),
  reason: v.pipe(v.optional(v.string()), v.description('Why the delivery was ignored.')),
  runId: v.pipe(v.optional(v.string()), v.description('The indexing run started or joined (`GET /v2/admin/domains/{domainId}/index` follows it).')),
});

export type PushBodyIn = v.InferOutput<typeof PushBody>;
export type PushHookAnswerOut = v.InferOutput<typeof PushHookAnswer>;
