import assert from 'node:assert/strict';
import { runToolLoop } from '../../../activities/agent/tool-loop.js';
import type { ModelPort } from '../../../core/model/index.js';
import { toolWorkspace } from './workspace-fixture.js';

describe("the agent's tool loop and its turn's deadline", () => {
  it("bounds each model call by the time the turn has left, not by the client's 600 s default", async () => {
    const asked: Array<number | undefined> = [];
    // The loop's own model port is the seam here: the call's options are what is checked, not a provider.
    const port: Pick<ModelPort, 'chat'> = {
      chat: async ({ timeoutMs }) => {
        asked.push(timeoutMs);
        return { id: 'c1', object: 'chat.completion', created: 0, model: 'm', choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message: { role: 'assistant', content: 'done', refusal: null } }] };
      },
    };
    const state = { messages: [], steps: 0, tokens: 0, finish: undefined, todos: undefined };
    const hour = 3_600_000;
    const stop = await runToolLoop(port as ModelPort, 'm', await toolWorkspace(), state, { maxSteps: 5, maxTokens: 100_000, deadline: Date.now() + hour });
    assert.equal(stop, 'no_tool_calls');
    assert.equal(asked.length, 1);
    // The call may run until the turn's time is up (the loop's own signal ends it then, as the turn's time bound).
    assert.ok(asked[0] !== undefined && asked[0] > hour - 60_000 && asked[0] <= hour + 5_000, String(asked[0]));
  });
});
