import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { createApp } from '../../../api/app.js';
import { pullsRouter } from '../../../api/pulls/index.js';
import { serve } from '../../support/services.js';
import { engineFixture } from './setup.js';

describe('agent engine: the local forge pull-request page', function () {
  it('serves title, body and the git diff of the job branch to an admin key of the organisation, or to its link', async function () {
    const f = await engineFixture({
      script: [
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-3.mdx', old_text: 'topic 3', new_text: 'subject 3' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Say subject <3>', summary: 'Wording.' } }] },
        { toolCalls: [{ name: 'replace_text', arguments: { path: 'page-1.mdx', old_text: 'topic 1', new_text: 'subject 1' } }] },
        { toolCalls: [{ name: 'finish', arguments: { title: 'Say subject <3>', summary: 'Page 1 too.' } }] },
      ],
    });
    const turn = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('page1', ['Reword page 3'])));
    const pr = await f.inActivity(() =>
      f.activities.openOrUpdatePullRequest({ jobId: 'page1', projectId: 'docs', branch: 'quire/page1', turn: 1, title: turn.title, summary: turn.summary, messageIds: ['m1-0'], filesChanged: turn.filesChanged, validationErrors: [], draft: false }),
    );
    // A follow-up turn: the workflow names every message the job has handled so far, the first one included.
    const second = await f.inActivity(async () => f.activities.runAgentTurn(await f.turnInput('page1', ['Now page 1'], 2)));
    await f.inActivity(() =>
      f.activities.openOrUpdatePullRequest({ jobId: 'page1', projectId: 'docs', branch: 'quire/page1', turn: 2, title: second.title, summary: second.summary, messageIds: ['m1-0', 'm2-0'], filesChanged: [...turn.filesChanged, ...second.filesChanged], validationErrors: [], draft: false }),
    );
    const { url } = await serve(createApp(f.services, [pullsRouter]));
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

    assert.ok(!('viewTokenHash' in body), 'not even the token hash is shown');

    const html = await fetch(url + path, { headers: { authorization: `Bearer ${admin.secret}`, accept: 'text/html' } });
    const page = await html.text();
    assert.match(page, /<h1>Say subject &#60;3&#62; <span class="meta">#1<\/span><\/h1>/, 'the title of the job, then the number');
    assert.match(page, /<span class="add">\+This page explains subject 3 /);
    assert.match(page, /<span class="add">\+This page explains subject 1 /, "the follow-up's change is in the diff");
    // Each turn shows its own request: the follow-up does not quote the first prompt again.
    const [opened, followUp] = page.split('<article').slice(1);
    assert.match(opened ?? '', /Opened, turn 1 · <time datetime="[^"]+">\d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d UTC<\/time>/);
    assert.match(opened ?? '', /<h3>Requested<\/h3>\s*<blockquote>\s*<p>Reword page 3<\/p>\s*<\/blockquote>/, 'the body is Markdown, rendered');
    assert.match(followUp ?? '', /Follow-up, turn 2 · <time/);
    assert.match(followUp ?? '', /<h3>Requested<\/h3>\s*<blockquote>\s*<p>Now page 1<\/p>\s*<\/blockquote>/);
    assert.doesNotMatch(followUp ?? '', /Reword page 3/);
    const visible = page.replace(/<[^>]+>/g, '');
    assert.doesNotMatch(visible, /\d{4}-\d\d-\d\dT\d\d:/, 'no raw ISO timestamps in the text');
    // How to fetch and merge it, from a clone of the project's repository; the server's folder is never shown.
    assert.match(page, /git fetch origin\ngit switch quire\/page1 +# try the change locally\ngit switch main\ngit merge --no-ff quire\/page1\ngit push origin main/);
    const repository = (await f.services.tenants.getProject('docs'))?.repository ?? '';
    assert.ok(repository && !page.includes(repository), 'the bare repository path stays on the server');
    assert.doesNotMatch(page, /quire:page1:turn/, 'the hidden turn marker stays hidden');
    assert.match(html.headers.get('content-security-policy') ?? '', /default-src 'none'/);

    // The prLink opens in a browser by itself: its token authorises this pull request only.
    const token = new URL(pr.url).searchParams.get('token');
    assert.match(token ?? '', /^pv_[A-Za-z0-9_-]{43}$/);
    const linked = await fetch(pr.url.replace(/^https?:\/\/[^/]+/, url), { headers: { accept: 'text/html' } });
    assert.equal(linked.status, 200);
    assert.equal(linked.headers.get('referrer-policy'), 'no-referrer');
    assert.match(await linked.text(), /Say subject &#60;3&#62;/);
    assert.equal((await fetch(`${url}${path}?token=${token}x`)).status, 404, 'a wrong token is a missing pull request');
    assert.equal((await fetch(`${url}/forge/docs/pulls/9?token=${token}`)).status, 404);
    // Everything the embedded stores wrote (the pull-request database and its journal included).
    const dataDir = f.services.config.dataDir;
    const files = (await fs.readdir(dataDir, { recursive: true })).map((name) => `${dataDir}/${name}`);
    const stored = (await Promise.all(files.map((file) => fs.readFile(file, 'latin1').catch(() => '')))).join('');
    assert.ok(!stored.includes(token!), 'only the hash of the token is stored');

    assert.equal((await fetch(url + path, { headers: { authorization: `Bearer ${stranger.secret}` } })).status, 404);
    assert.equal((await fetch(url + path)).status, 401);
    // A browser without a key gets a page that asks for one (or for the link), not JSON.
    const signIn = await fetch(url + path, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    assert.equal(signIn.status, 401);
    assert.match(signIn.headers.get('content-type') ?? '', /^text\/html/);
    const signInPage = await signIn.text();
    assert.match(signInPage, /<input id="key" name="key" type="password"/);
    assert.match(signInPage, /prLink/);
    const nonce = /<script nonce="([^"]+)">/.exec(signInPage)?.[1];
    assert.ok(nonce);
    assert.match(signIn.headers.get('content-security-policy') ?? '', new RegExp(`script-src 'nonce-${nonce}'; connect-src 'self'`));
    const badLink = await fetch(`${url}${path}?token=pv_wrong`, { headers: { accept: 'text/html' } });
    assert.equal(badLink.status, 404);
    assert.match(await badLink.text(), /The token in this link does not open a pull request here/);
    assert.equal((await fetch(url + path, { headers: { accept: 'text/html', authorization: 'Bearer quire_wrong' } })).status, 401, 'a wrong key is refused as before');
    assert.equal((await fetch(url + '/forge/docs/pulls/9', { headers: { authorization: `Bearer ${admin.secret}` } })).status, 404);
  });
});
