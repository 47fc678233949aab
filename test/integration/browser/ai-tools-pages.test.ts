import assert from 'node:assert/strict';
import { llmsRouter } from '../../../api/llms/index.js';
import { mcpRouter } from '../../../api/mcp/index.js';
import { openAiCompatRouter } from '../../../api/openai-compat/index.js';
import { watchedPage } from '../../support/browser.js';
import { onSuiteEnd } from '../../support/teardown.js';
import { aiToolsWorld } from '../ai-tools/world.js';
import type { AiToolsResult } from './pages/ai-tools-result.js';
import { bundlePage, htmlPage, startPageServer } from './page-server.js';

const ANSWER = 'Compare the Skylark-Signature header with an HMAC of the body [1].';

/**
 * The doors for AI tools called from a page on another origin in headless
 * Chromium, with the real clients a browser-based tool would use: the
 * `openai` package, the MCP SDK's Streamable HTTP client, and fetch() on
 * llms.txt. The scripted model server stands for an OpenAI-compatible
 * provider. Each works only if its CORS preflight lets the client's own
 * headers through and the response headers it needs are exposed.
 */
describe('MCP, the OpenAI-compatible endpoint and llms.txt from a page on another origin', function () {
  this.timeout(120_000);

  const pageResult = async (domain: string, allowedOrigins?: string[]) => {
    const world = await aiToolsWorld({ features: [mcpRouter, openAiCompatRouter, llmsRouter], script: () => ({ text: ANSWER }) });
    onSuiteEnd(world.close);
    const site = await startPageServer();
    if (allowedOrigins) {
      const theirs = await world.services.tenants.getDomain(domain);
      assert.ok(theirs);
      await world.services.tenants.putDomain({ ...theirs, allowedOrigins: allowedOrigins.map((o) => o.replace('SITE', site.origin)) });
    }
    site.put('/ai-tools.js', await bundlePage('ai-tools.ts'));
    site.put('/ai-tools.html', htmlPage('AI tools', { api: world.url, domain, key: world.org.assistantKey }, '/ai-tools.js'));
    const tab = await watchedPage();
    onSuiteEnd(() => tab.close());
    await tab.page.goto(`${site.origin}/ai-tools.html`);
    await tab.page.waitForFunction('window.RESULT !== undefined');
    const result = (await tab.page.evaluate('window.RESULT')) as AiToolsResult;
    return { result, errors: tab.errors };
  };

  it('each client works: completions streamed and not, MCP tools listed and called, llms.txt revalidated with its readable ETag', async () => {
    const { result, errors } = await pageResult('skylark', ['https://elsewhere.example.com', 'SITE']);
    assert.equal(result.error, undefined, errors.join('\n'));
    assert.match(result.completion ?? '', /^Compare the Skylark-Signature header with an HMAC of the body \[\[1\]\]\(https:\/\/docs\.skylark\.dev\//);
    assert.equal(result.streamed, result.completion, 'the stream carries the same linked text');
    assert.ok(result.mcpTools?.includes('search') && result.mcpTools.includes('get_page'), String(result.mcpTools));
    assert.match(result.mcpSearch ?? '', /https:\/\/docs\.skylark\.dev\//);
    assert.equal(result.llmsStatus, 200);
    assert.match(result.llmsEtag ?? '', /^(W\/)?"/, 'the ETag is exposed to the page');
    assert.equal(result.llmsRevalidated, 304);
    // The MCP client asks for a server stream with GET; a stateless server's 405 is the spec's answer, and Chromium logs it,
    // when its log line comes before the page is read (in one fresh-clone run it came after): nothing else may be logged.
    assert.deepEqual(
      errors.filter((e) => !/status of 405/.test(e)),
      [],
    );
    assert.ok(errors.length <= 1, errors.join('\n'));
  });

  it('a domain that does not list the page origin refuses the completion (its preflight, answered alike for every origin, does not)', async () => {
    const { result, errors } = await pageResult('skylark', ['https://docs.skylark.dev']);
    assert.match(result.error ?? '', /Connection error|Failed to fetch/);
    assert.ok(errors.some((e) => /blocked by CORS policy: No 'Access-Control-Allow-Origin' header is present on the requested resource/.test(e)), errors.join('\n'));
    assert.ok(!errors.some((e) => /Response to preflight request/.test(e)), errors.join('\n'));
  });
});
