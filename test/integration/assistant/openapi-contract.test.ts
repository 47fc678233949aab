import path from 'node:path';
import { pullsRouter } from '../../../api/pulls/index.js';
import { widgetRouter } from '../../../api/widget/index.js';
import { buildWidget } from '../../../infra/build-widget.js';
import { conforms } from '../../support/openapi-conforms.js';
import { tempDir } from '../../support/services.js';
import { assistantWorld, userMessage, userMessageV1 } from './harness.js';

describe('the OpenAPI document matches the assistant and browser endpoints', () => {
  it('documents each status and body of the assistant messages, the preflights, the widget and the pull page', async () => {
    const bundlePath = path.join(await tempDir('quire-widget-'), 'widget.js');
    await buildWidget(bundlePath, path.resolve(__dirname, '..', '..', '..'));
    const w = await assistantWorld({ features: [(s) => widgetRouter(s, { bundlePath }), pullsRouter] });
    await w.services.tenants.putDomain({
      id: 'portal',
      orgId: w.org.orgId,
      source: '.',
      docsPath: '',
      baseUrl: 'https://portal.example.com',
      includeHidden: false,
      allowedOrigins: ['https://docs.portal.example.com'],
    });
    const call = (p: string, init: RequestInit = {}) => fetch(`${w.url}${p}`, init);
    const ask = { fp: 'a', messages: [userMessage('How do I install the CLI?')] };

    const V2 = '/discovery/v2/assistant/{domain}/message';
    const created = await w.post('v2', ask, { headers: { origin: 'https://anywhere.example.com' } });
    await conforms(V2, 'post', created);
    await created.text();
    await conforms(V2, 'post', await w.post('v2', { fp: '' }));
    await conforms(V2, 'post', await w.post('v2', ask, { key: 'quire_dsc_unknown' }));
    await conforms(V2, 'post', await w.post('v2', ask, { key: w.org.adminKey }));
    await conforms(V2, 'post', await w.post('v2', { ...ask, threadId: created.headers.get('x-thread-id'), threadKey: 'tk_wrong' }));
    await conforms(V2, 'post', await w.post('v2', ask, { domain: 'portal', headers: { origin: 'https://elsewhere.example.com' } }));
    await conforms(V2, 'post', await call('/discovery/v2/assistant/docs/message', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }));
    const v1 = await w.post('v1', { fp: 'a', messages: [userMessageV1('How do I install the CLI?')] });
    await conforms('/discovery/v1/assistant/{domain}/message', 'post', v1);
    await v1.text();

    const preflight = (origin?: string) => ({
      method: 'OPTIONS',
      headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });
    await conforms(V2, 'options', await call('/discovery/v2/assistant/docs/message', preflight('https://anywhere.example.com')));
    await conforms(V2, 'options', await call('/discovery/v2/assistant/portal/message', preflight('https://elsewhere.example.com')));
    await conforms(V2, 'options', await call('/discovery/v2/assistant/docs/message', preflight()));
    await conforms('/discovery/v1/search/{domain}', 'options', await call('/discovery/v1/search/docs', preflight('https://anywhere.example.com')));

    await conforms('/widget.js', 'get', await call('/widget.js'));
    await conforms('/widget/demo', 'get', await call('/widget/demo'));
    const P = '/forge/{projectId}/pulls/{number}';
    await conforms(P, 'get', await call('/forge/docs/pulls/1'));
    await conforms(P, 'get', await call('/forge/docs/pulls/1?token=pv_wrong'));
    await conforms(P, 'get', await call('/forge/docs/pulls/1', { headers: { authorization: `Bearer ${w.org.assistantKey}` } }));
    await w.close();
  });
});
