/**
 * A shared service (QUIRE_ALLOW_PRIVATE_TARGETS=false, the default with PostgreSQL) sends nothing an
 * organisation names to this machine or its private network: webhooks are refused when registered
 * and when delivered, clone URLs when saved.
 */
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MockActivityEnvironment } from '@temporalio/testing';
import { gitAuthFor } from '../../../activities/agent/project.js';
import { createWebhookActivities } from '../../../activities/webhooks/deliver-webhook.js';
import { fetch } from 'undici';
import { checkTarget, PrivateTargetError, privateTargetProblem, targetDispatcher, type Resolver } from '../../../core/http/index.js';
import { webhookId } from '../../../core/webhooks/index.js';
import { bearerCaller, expectError } from '../../support/json-calls.js';
import { twoOrgApi } from '../../support/services.js';
import { onSuiteEnd } from '../../support/teardown.js';

describe('private targets refused on a shared service', function () {
  this.timeout(60_000);

  it('refuses a webhook or clone URL on a private address with 400 naming the field, and delivers nothing to one', async () => {
    // An internal service a webhook would probe: it must hear nothing.
    const heard: string[] = [];
    const internal = http.createServer((req, res) => void (heard.push(req.url ?? ''), res.end()));
    await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
    onSuiteEnd(() => new Promise<void>((r) => internal.close(() => r())));
    const port = (internal.address() as AddressInfo).port;

    const { services, url, acme } = await twoOrgApi({ withTemporal: false, env: { QUIRE_ALLOW_PRIVATE_TARGETS: 'false' } });
    await services.tenants.putProject({ id: 'handbook', orgId: 'acme', repository: '/r.git', branch: 'main', docsPath: '', forge: 'local', allowedModels: [] });
    const call = bearerCaller(() => url);
    for (const target of [`http://127.0.0.1:${port}/hook`, `http://2130706433:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`, 'http://localhost:9464/metrics', 'http://169.254.169.254/latest']) {
      await expectError(await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: target }), 400, 'invalid_request', 'url');
      await expectError(await call('POST', '/v2/admin/projects', acme.adminKey, { id: 'internal', repository: target }), 400, 'invalid_request', 'repository');
      await expectError(await call('POST', '/v2/admin/domains', acme.adminKey, { id: 'internal', source: target, baseUrl: 'https://docs.acme.test' }), 400, 'invalid_request', 'source');
    }
    assert.equal((await call('POST', '/v2/agent/handbook/webhooks', acme.adminKey, { url: 'https://hooks.acme.test/quire' })).status, 201);

    // A receiver registered while private targets were allowed (or by the CLI) is refused at delivery, and not retried.
    const hookUrl = `http://127.0.0.1:${port}/hook`;
    const id = webhookId('handbook', hookUrl);
    await services.webhooks.put({ id, projectId: 'handbook', url: hookUrl, events: [], secret: { kind: 'stored', value: 'whsec_test_secret_0001' }, createdAt: new Date().toISOString() });
    const event = await services.events.append({ key: 'turn:1:started', type: 'turn.started', time: new Date().toISOString(), jobId: 'job_1', projectId: 'handbook', data: {} });
    await assert.rejects(
      new MockActivityEnvironment().run(() => createWebhookActivities(services).deliverWebhookEvent({ projectId: 'handbook', webhookId: id, event: { jobId: 'job_1', seq: event.seq, type: event.type } })),
      (e: unknown) => e instanceof Error && 'nonRetryable' in e && e.nonRetryable === true && /private address/.test(e.message),
    );
    const [logged] = await services.webhooks.deliveries('handbook', 1);
    assert.match(logged?.lastError ?? '', /^refused: the receiver reaches a private address/);
    assert.deepEqual(heard, [], 'the internal service heard nothing');
    // The agent's git follows no redirect on such a service: the host checked is the one it talks to.
    const project = (await services.tenants.getProject('handbook'))!;
    assert.equal(gitAuthFor(services, project).followRedirects, false);
    assert.equal(gitAuthFor(services, project, 'git.acme.test:443:203.0.113.7').pin, 'git.acme.test:443:203.0.113.7');
  });

  it('checks a name once and pins git to the addresses checked; a name that answers a private address when connecting is refused', async () => {
    // A resolver that answers as a rebinding DNS does: public when checked, this machine afterwards.
    let answers = 0;
    const rebinding: Resolver = (_host, _options, callback) => {
      answers++;
      callback(null, answers === 1 ? [{ address: '203.0.113.7', family: 4 }, { address: '2001:db8::7', family: 6 }] : [{ address: '127.0.0.1', family: 4 }]);
    };
    assert.deepEqual(await checkTarget('https://git.acme.test/acme/docs.git', rebinding), { pin: 'git.acme.test:443:203.0.113.7,[2001:db8::7]' });
    assert.deepEqual(await checkTarget('http://git.acme.test:8080/docs.git', rebinding), { problem: await privateTargetProblem('http://127.0.0.1/') });
    // An ssh address is checked, but ssh resolves it itself: no pin.
    assert.deepEqual(await checkTarget('git@git.acme.test:acme/docs.git', (_host, _options, callback) => callback(null, [{ address: '203.0.113.7', family: 4 }])), {});

    const heard: string[] = [];
    const internal = http.createServer((req, res) => void (heard.push(req.url ?? ''), res.end('ok')));
    await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
    onSuiteEnd(() => new Promise<void>((r) => internal.close(() => r())));
    const port = (internal.address() as AddressInfo).port;
    const toInternal = (_host: string, _options: unknown, callback: Parameters<Resolver>[2]) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
    const noProxy = { http: undefined, https: undefined, noProxy: undefined };
    const refused: unknown = await fetch(`http://hooks.acme.test:${port}/quire`, { method: 'POST', dispatcher: targetDispatcher(noProxy, false, toInternal) }).catch((e: unknown) => e);
    assert.ok(refused instanceof Error && refused.cause instanceof PrivateTargetError, String(refused));
    assert.match(refused.cause.message, /^hooks\.acme\.test reaches a private address/);
    assert.deepEqual(heard, [], 'the internal service heard nothing');
    // Allowed (the embedded default), the same name reaches it.
    const allowed = await fetch(`http://127.0.0.1:${port}/quire`, { method: 'POST', dispatcher: targetDispatcher(noProxy, true, toInternal) });
    assert.equal(await allowed.text(), 'ok');
    assert.deepEqual(heard, ['/quire']);
  });
});
