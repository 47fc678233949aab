import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import OpenAI from 'openai';
import type { AiToolsResult } from './ai-tools-result.js';
import { pageConfig } from './page-config.js';

/**
 * A page on another origin using Quire's doors for AI tools the way a
 * browser-based tool would: the `openai` package (streamed and not), the
 * MCP SDK's Streamable HTTP client, and llms.txt fetched then revalidated
 * with the ETag it could read.
 */
async function run(): Promise<AiToolsResult> {
  const { api, domain, key } = pageConfig();
  const result: AiToolsResult = {};
  const openai = new OpenAI({ baseURL: `${api}/discovery/v1/openai/${domain}`, apiKey: key, maxRetries: 0, dangerouslyAllowBrowser: true });
  const question = { role: 'user' as const, content: 'How do I verify webhook signatures?' };
  const completion = await openai.chat.completions.create({ model: 'quire', messages: [question] });
  result.completion = completion.choices[0]?.message.content ?? '';
  let streamed = '';
  for await (const chunk of await openai.chat.completions.create({ model: 'quire', messages: [question], stream: true })) {
    streamed += chunk.choices[0]?.delta.content ?? '';
  }
  result.streamed = streamed;

  const client = new Client({ name: 'browser-page', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp/${domain}`), { requestInit: { headers: { Authorization: `Bearer ${key}` } } }));
  result.mcpTools = (await client.listTools()).tools.map((t) => t.name).sort();
  const search = await client.callTool({ name: 'search', arguments: { query: 'webhook signatures' } });
  result.mcpSearch = JSON.stringify(search.content);
  await client.close();

  const llms = await fetch(`${api}/discovery/v1/llms/${domain}.txt`);
  result.llmsStatus = llms.status;
  result.llmsEtag = llms.headers.get('ETag');
  await llms.text();
  if (result.llmsEtag) {
    result.llmsRevalidated = (await fetch(`${api}/discovery/v1/llms/${domain}.txt`, { headers: { 'If-None-Match': result.llmsEtag } })).status;
  }
  return result;
}

run().then(
  (result) => Reflect.set(window, 'RESULT', result),
  (err: unknown) => Reflect.set(window, 'RESULT', { error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }),
);
