import assert from 'node:assert/strict';
import { createApp } from '../../../api/app.js';
import { pullsRouter } from '../../../api/pulls/index.js';
import type { ApiServices } from '../../../api/services.js';
import { Limiter } from '../../../core/limits/index.js';
import { serve } from '../../support/services.js';
import { engineFixture } from './setup.js';

describe('agent engine: the local forge pull-request page', function () {
  it('serves title, body and the git diff of the job branch to an admin key of the organisation only', async function () {
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-3.mdx', old_text: 'topic 3', new_text: 'subject 3' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Say subject <3>', summary: 'Wording.' } }] },
      ],
    });
    const turn = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('page1', ['Reword page 3'])));
    const pr = await f.inActivity(() =>
      f.activities.openOrUpdatePullRequest({ jobId: 'page1', projectId: 'docs', branch: 'quire/page1', turn: 1, title: turn.title, summary: turn.summary, messageIds: ['m1-0'], filesChanged: turn.filesChanged, validationErrors: [], draft: false }),
    );
    const api: ApiServices = { ...f.services, limiter: new Limiter({ redis: undefined, onStoreError: 'open' }), temporal: undefined as never, probes: {} };
    const { url } = await serve(createApp(api, [pullsRouter]));
    const admin = await f.services.tenants.createKey('acme', 'admin');
    await f.services.tenants.addOrg('other');
    const stranger = await f.services.tenants.createKey('other', 'admin');
    const path = new URL(pr.url).pathname;
    assert.equal(path, '/forge/docs/pulls/1');

    const json = await fetch(url + path, { headers: { authorization: `Bearer ${admin.secret}` } });
    assert.equal(json.status, 200);
    const body = (await json.json()) as { title: string; body: string; diff: string };
    assert.equal(body.title, 'Say subject <3>');
    assert.match(body.body, /> Reword page 3/);
    assert.match(body.diff, /^-This page explains topic 3/m);
    assert.match(body.diff, /^\+This page explains subject 3/m);

    const html = await fetch(url + path, { headers: { authorization: `Bearer ${admin.secret}`, accept: 'text/html' } });
    const page = await html.text();
    assert.match(page, /<h1>#1 Say subject &#60;3&#62;<\/h1>/);
    assert.match(page, /\+This page explains subject 3/);

    assert.equal((await fetch(url + path, { headers: { authorization: `Bearer ${stranger.secret}` } })).status, 404);
    assert.equal((await fetch(url + path)).status, 401);
    assert.equal((await fetch(url + '/forge/docs/pulls/9', { headers: { authorization: `Bearer ${admin.secret}` } })).status, 404);
  });
});
