/**
 * One organisation never reads, changes or learns of another's data: every route of the served
 * OpenAPI document that names a project, domain, job, thread, webhook, automation, key or pull
 * request answers globex's ids, to each of acme's credentials (admin key, assistant key, console
 * session) and to none, exactly as it answers ids that do not exist (status, body, header names),
 * and nothing of globex's changes. The whole API over a real database.
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
});
