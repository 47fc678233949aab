/**
 * One organisation never reads, changes or learns of another's data: every route of the served
 * OpenAPI document that names a project, domain, job, thread, webhook, automation, key or pull
 * request answers globex's ids, to each of acme's credentials (admin key, assistant key, console
 * session) and to none, exactly as it answers ids that do not exist (status, body, header names),
 * and nothing of globex's changes; and a body that names globex's ids (a project, a thread) on
 * acme's own project or domain answers as one naming missing ids. The whole API over a real database.
 */
import assert from 'node:assert/strict';
import { newJobRecord } from '../../../api/agent/create-job.js';
import { newAutomationId } from '../../../core/automations/index.js';
import { newJobId } from '../../../core/jobs/index.js';
import { newThreadKey } from '../../../core/threads/index.js';
import { newWebhook } from '../../../core/webhooks/index.js';
import { twoOrgApi } from '../../support/services.js';

/** Headers whose value is expected to differ from one request to the next. */
const PER_REQUEST = new Set(['date', 'x-request-id', 'content-length', 'etag', 'keep-alive', 'connection']);

describe('tenant isolation: another organisation’s ids answer as missing ones', function () {
  this.timeout(120_000);

  it('on every route, with every kind of credential, and change nothing of theirs', async () => {
    const { services, url, acme } = await twoOrgApi({ withTemporal: false, env: { QUIRE_MODEL: 'm', QUIRE_OPERATOR_TOKEN: 'operator-token-0123456789' } });
    const { tenants } = services;
    const project = { branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: [] };
    await tenants.putProject({ id: 'rival-proj', orgId: 'globex', repository: '/srv/rival.git', ...project });
    await tenants.putDomain({ id: 'rival-site', orgId: 'globex', source: '/srv/rival', docsPath: '', baseUrl: 'https://docs.globex.test', includeHidden: false });
    const job = newJobRecord({ projectId: 'rival-proj', repository: '/srv/rival.git', ref: 'main', model: 'm' });
    await services.jobs.create(job);
    const { hook } = newWebhook('rival-proj', 'https://hooks.globex.test/q', []);
    await services.webhooks.put(hook);
    const automationId = newAutomationId();
    const automation = { id: automationId, projectId: 'rival-proj', cron: '0 * * * *', interval: null, timezone: 'UTC', prompt: 'p', model: null, asDraft: false };
    await services.automations.create({ ...automation, createdAt: new Date().toISOString() });
    const threadKey = newThreadKey();
    const at = new Date().toISOString();
    await services.threads.append(
      { orgId: 'globex', threadId: 'rival-thread', domainId: 'rival-site', keyHash: threadKey.hash },
      { messageId: 'msg_rival', question: 'q', answer: 'a', sources: [], fp: '', mode: 'extractive', outcome: 'complete', startedAt: at, finishedAt: at },
    );
    const { pull } = await services.pulls.openOnce({ projectId: 'rival-proj', jobId: job.id, branch: 'quire/rival', base: 'main', title: 't', body: 'b', draft: false });
    const [rivalKey] = await tenants.listKeys('globex');

    const theirs: Record<string, string> = {
      projectId: 'rival-proj',
      domain: 'rival-site',
      domainId: 'rival-site',
      id: job.id,
      automationId,
      webhookId: hook.id,
      threadId: 'rival-thread',
      keyId: rivalKey!.id,
      number: String(pull.number),
    };
    const missing: Record<string, string> = {
      projectId: 'ghost-proj',
      domain: 'ghost-site',
      domainId: 'ghost-site',
      id: newJobId(),
      automationId: newAutomationId(),
      webhookId: 'wh_0000000000000000',
      threadId: 'ghost-thread',
      keyId: 'key_0000000000000000',
      number: '9999',
    };

    const signIn = await fetch(`${url}/console/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key: acme.adminKey }) });
    const { csrfToken } = (await signIn.json()) as { csrfToken: string };
    const credentials: Record<string, Record<string, string>> = {
      'admin key': { authorization: `Bearer ${acme.adminKey}` },
      'assistant key': { authorization: `Bearer ${acme.assistantKey}` },
      'console session': { cookie: signIn.headers.get('set-cookie')!.split(';')[0]!, 'x-csrf-token': csrfToken },
      none: {},
    };

    /** A request naming `ids` in its path and its body, answered as status, body and header names with the ids put back as names. */
    const answer = async (method: string, template: string, ids: Record<string, string>, headers: Record<string, string>) => {
      const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => ids[name] ?? 'x');
      const body = ['POST', 'PATCH'].includes(method)
        ? JSON.stringify({ prompt: 'p', projectId: ids.projectId, threadId: ids.threadId, threadKey: threadKey.key, messageId: 'msg_rival', helpful: true, query: 'q', path: '/x', searchId: 's' })
        : undefined;
      const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json', 'idempotency-key': 'same-key', ...headers }, body, signal: AbortSignal.timeout(30_000) });
      let text = await res.text();
      for (const [name, value] of Object.entries(ids).sort(([, a], [, b]) => b.length - a.length)) text = text.split(value).join(`{${name}}`);
      const names = [...res.headers.keys()].filter((h) => !PER_REQUEST.has(h)).sort();
      return { status: res.status, text, names };
    };

    const { paths } = (await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const named = Object.entries(paths).filter(([template]) => Object.keys(theirs).some((name) => template.includes(`{${name}}`)));
    let compared = 0;
    for (const [template, item] of named) {
      // Public by design, like a site's own llms.txt: any domain's, without a key.
      if (template.startsWith('/discovery/v1/llms/')) continue;
      for (const method of Object.keys(item).filter((m) => m !== 'parameters' && m !== 'options')) {
        for (const [who, headers] of Object.entries(credentials)) {
          const M = method.toUpperCase();
          const [a, b] = [await answer(M, template, theirs, headers), await answer(M, template, missing, headers)];
          assert.deepEqual(a, b, `${M} ${template} with ${who}: globex's ids answer unlike missing ones`);
          compared++;
        }
      }
    }
    assert.ok(compared > 150, `compared ${compared} answers`);

    // Nothing of globex's changed.
    assert.equal((await services.jobs.get('rival-proj', job.id))?.status, 'active');
    assert.ok(await services.webhooks.get('rival-proj', hook.id));
    assert.ok(await services.automations.get('rival-proj', automationId));
    assert.equal((await services.threads.load('globex', 'rival-thread'))?.exchanges.length, 1);
    assert.equal((await tenants.getProject('rival-proj'))?.repository, '/srv/rival.git');
    assert.equal((await tenants.getDomain('rival-site'))?.baseUrl, 'https://docs.globex.test');
    assert.ok((await tenants.listKeys('globex')).every((k) => !k.revokedAt));
    assert.equal((await services.pulls.get('rival-proj', pull.number))?.state, 'open');
  });

  it('in request bodies: an id of theirs sent to acme\'s own project or domain answers as a missing id, and changes nothing of theirs', async () => {
    const { services, url, acme } = await twoOrgApi({ withTemporal: false, env: { QUIRE_MODEL: 'm' } });
    const { tenants } = services;
    const project = { branch: 'main', docsPath: '', forge: 'local' as const, allowedModels: [] };
    const site = { docsPath: '', includeHidden: false };
    await tenants.putProject({ id: 'own-proj', orgId: 'acme', repository: '/srv/own.git', ...project });
    await tenants.putDomain({ id: 'own-site', orgId: 'acme', source: '/srv/own', baseUrl: 'https://docs.acme.test', ...site });
    await tenants.putProject({ id: 'rival-proj', orgId: 'globex', repository: '/srv/rival.git', ...project });
    await tenants.putDomain({ id: 'rival-site', orgId: 'globex', source: '/srv/rival', baseUrl: 'https://docs.globex.test', ...site });
    const threadKey = newThreadKey();
    const at = new Date().toISOString();
    await services.threads.append(
      { orgId: 'globex', threadId: 'rival-thread', domainId: 'rival-site', keyHash: threadKey.hash },
      { messageId: 'msg_rival', question: 'q', answer: 'a', sources: [], fp: '', mode: 'extractive', outcome: 'complete', startedAt: at, finishedAt: at },
    );

    const theirs = { projectId: 'rival-proj', domain: 'rival-site', threadId: 'rival-thread', threadKey: threadKey.key, messageId: 'msg_rival' };
    const missing = { projectId: 'ghost-proj', domain: 'ghost-site', threadId: 'ghost-thread', threadKey: newThreadKey().key, messageId: 'msg_ghost' };
    type Ids = typeof theirs;
    const admin = { authorization: `Bearer ${acme.adminKey}` };
    const assistant = { authorization: `Bearer ${acme.assistantKey}` };
    const messages = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'How do I install it?' }] }];
    /** Each request: acme's own path and credential, the ids under test in the body (or, for the beacon, the path). */
    const requests: Array<[string, string, Record<string, string>, (ids: Ids) => unknown]> = [
      ['POST', '/v1/analytics/own-site/gaps/gap_1/job', admin, (ids) => ({ projectId: ids.projectId })],
      ['POST', '/v2/agent/own-proj/webhooks', admin, (ids) => ({ url: 'https://hooks.acme.test/q', projectId: ids.projectId })],
      ['POST', '/discovery/v1/assistant/own-site/feedback', assistant, (ids) => ({ threadId: ids.threadId, threadKey: ids.threadKey, messageId: ids.messageId, helpful: true })],
      ['POST', '/discovery/v2/assistant/own-site/message', assistant, (ids) => ({ fp: 'a', threadId: ids.threadId, threadKey: ids.threadKey, messages })],
      ['POST', '/discovery/v1/assistant/own-site/message', assistant, (ids) => ({ fp: 'a', threadId: ids.threadId, threadKey: ids.threadKey, messages: [{ id: 'u1', role: 'user', content: 'How do I install it?' }] })],
    ];
    const answer = async (method: string, path: string, headers: Record<string, string>, body: unknown, ids: Ids) => {
      const res = await fetch(url + path, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body), signal: AbortSignal.timeout(30_000) });
      let text = await res.text();
      for (const [name, value] of Object.entries(ids).sort(([, a], [, b]) => b.length - a.length)) text = text.split(value).join(`{${name}}`);
      // A new thread's own id and key, when one is made, differ from one request to the next.
      text = text.replace(/thr_[\w-]+/g, '{new thread}');
      const names = [...res.headers.keys()].filter((h) => !PER_REQUEST.has(h) && !h.startsWith('x-thread')).sort();
      return { status: res.status, text, names };
    };
    for (const [method, path, headers, body] of requests) {
      const [a, b] = [await answer(method, path, headers, body(theirs), theirs), await answer(method, path, headers, body(missing), missing)];
      assert.deepEqual(a, b, `${method} ${path}: a body naming globex's ids answers unlike one naming missing ids`);
      // Refused for the id, not for a body this test got wrong.
      if (!path.endsWith('/webhooks')) assert.equal(a.status, 404, `${method} ${path}: ${a.text}`);
    }
    // The gap job route reads the project before the gap: acme's own project gets past it, so the project is what the check above compared.
    const own = await answer('POST', '/v1/analytics/own-site/gaps/gap_1/job', admin, { projectId: 'own-proj' }, theirs);
    assert.match(own.text, /gap 'gap_1'/);
    const gap = await answer('POST', '/v1/analytics/own-site/gaps/gap_1/job', admin, { projectId: 'rival-proj' }, theirs);
    assert.match(gap.text, /project '\{projectId\}' not found/);

    // The page-view beacon names its key in the body and its domain in the path: acme's key, globex's domain.
    const beacon = (domain: string, ids: Ids) =>
      answer('POST', `/discovery/v1/analytics/${domain}/page-view`, { origin: 'https://docs.acme.test' }, { key: acme.assistantKey, path: '/intro' }, ids);
    assert.deepEqual(await beacon('rival-site', theirs), await beacon('ghost-site', missing));

    // Nothing of globex's changed.
    const thread = await services.threads.load('globex', 'rival-thread');
    assert.equal(thread?.exchanges.length, 1);
    assert.equal(thread?.domainId, 'rival-site');
    assert.deepEqual(await services.webhooks.list('rival-proj'), []);
    assert.deepEqual(await services.webhooks.list('own-proj'), []);
  });
});
