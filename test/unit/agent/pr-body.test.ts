import assert from 'node:assert/strict';
import { pullRequestBody } from '../../../activities/agent/forge/pr-body.js';
import type { PullRequestRequest } from '../../../activities/agent/index.js';
import { gapPrompt } from '../../../api/analytics/gap-prompt.js';

const input: PullRequestRequest = {
  jobId: 'job_1', projectId: 'docs', branch: 'quire/job_1', turn: 1, title: 'T', summary: 'Did things.',
  messageIds: ['m-1'], prompts: ['Fix the intro'], filesChanged: ['intro.mdx'], validationErrors: [], draft: false,
};

describe('pull-request description', function () {
  it('says when a turn stopped at a bound, and not otherwise', function () {
    assert.match(pullRequestBody({ ...input, stopReason: 'max_steps' }), /### Stopped early\n\nThe turn reached its step limit \(QUIRE_AGENT_MAX_STEPS\)/);
    assert.match(pullRequestBody({ ...input, stopReason: 'max_time' }), /time limit/);
    for (const stopReason of ['finish', 'no_tool_calls', 'already_pushed', undefined] as const)
      assert.doesNotMatch(pullRequestBody({ ...input, stopReason }), /Stopped early/);
  });

  it('lists the prompt, the files and the remaining validation notes', function () {
    const body = pullRequestBody({ ...input, validationErrors: ['intro.mdx:3: broken link'] });
    assert.match(body, /^Did things\./);
    assert.match(body, /> Fix the intro/);
    assert.match(body, /- `intro\.mdx`/);
    assert.match(body, /### Validation notes[\s\S]*- intro\.mdx:3: broken link/);
  });

  it('names the repository instruction files the turn followed, and says nothing when there were none', function () {
    assert.match(pullRequestBody({ ...input, instructionFiles: ['.quire/AGENTS.md', 'AGENTS.md'] }), /### Repository instructions\n\nThe agent followed `\.quire\/AGENTS\.md`, `AGENTS\.md`\./);
    assert.doesNotMatch(pullRequestBody({ ...input, instructionFiles: [] }), /Repository instructions/);
    assert.doesNotMatch(pullRequestBody(input), /Repository instructions/);
  });

  it('quotes the start of a long prompt only, so the description stays within what a forge accepts', function () {
    const prompts = Array.from({ length: 50 }, (_, i) => `Prompt ${i} ${'x'.repeat(100_000)}`);
    const body = pullRequestBody({ ...input, prompts });
    assert.match(body, /> Prompt 49 x+ \[…\]/);
    assert.ok(body.length < 65_536, `${body.length} characters`);
  });

  it('stays within what GitHub accepts for a long job: the latest requests that fit, the first files of many, each saying what it left out', function () {
    const prompts = Array.from({ length: 50 }, (_, i) => `Prompt ${i} ${'x'.repeat(2_000)}`);
    const filesChanged = Array.from({ length: 5_000 }, (_, i) => `guides/section-${i}/a-rather-long-page-name-${i}.mdx`);
    const validationErrors = Array.from({ length: 50 }, (_, i) => `guides/section-${i}/page.mdx:3: broken link to /somewhere/${i}`);
    const body = pullRequestBody({ ...input, prompts, filesChanged, validationErrors });
    assert.ok(body.length < 65_536, `${body.length} characters`);
    assert.match(body, /_\d+ earlier requests not quoted\._/);
    assert.match(body, /> Prompt 49 x+ \[…\]/, 'the latest request is quoted');
    assert.doesNotMatch(body, /> Prompt 0 /);
    assert.match(body, /- `guides\/section-199\/a-rather-long-page-name-199\.mdx`\n- … and 4800 more/);
  });

  it("leaves a coverage gap's reader questions out of the quoted request, saying how many there were", function () {
    const gap = {
      id: 'gap_1', count: 2, topic: ['rotate', 'key'], pages: [], suggestion: 'Add a page about rotating keys.',
      questions: ['How do I rotate the key of jane.doe@example.com?', 'rotate key for account 4411'],
    } as unknown as Parameters<typeof gapPrompt>[0];
    const prompt = gapPrompt(gap, { id: 'docs', baseUrl: 'https://docs.example.com' });
    assert.match(prompt, /jane\.doe@example\.com/, 'the agent reads the questions');
    const body = pullRequestBody({ ...input, prompts: [prompt, 'Also mention the CLI'] });
    assert.doesNotMatch(body, /jane\.doe|4411/);
    assert.match(body, /> \[2 reader questions, quoted to the agent, left out here\]/);
    assert.match(body, /> Fill coverage gap gap_1 of docs/);
    assert.match(body, /> Also mention the CLI/);
  });
});
