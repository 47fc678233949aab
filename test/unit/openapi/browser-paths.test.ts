import assert from 'node:assert/strict';
import { openApiDocument } from '../../../api/openapi/index.js';

describe('OpenAPI: the browser-facing endpoints', () => {
  const doc = openApiDocument('http://localhost:3000') as { paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>> };

  it('documents the preflight and the answer of each assistant endpoint on one path, with the thread and CORS headers', () => {
    for (const v of ['v1', 'v2']) {
      const item = doc.paths[`/discovery/${v}/assistant/{domain}/message`];
      assert.ok(item?.options && item.post, v);
      // 400: a NUL (%00) in its URL, refused before anything else. No 403: a preflight is answered
      // alike for every origin (the request itself is refused), so it tells no domain's origins.
      assert.deepEqual(Object.keys(item.options.responses).sort(), ['200', '204', '400']);
      const headers = Object.keys(item.post.responses['200']?.headers ?? {});
      for (const h of ['X-Thread-Id', 'X-Thread-Key', 'Access-Control-Allow-Origin']) assert.ok(headers.includes(h), `${v} ${h}`);
    }
  });

  it('documents widget.js, its demo page and the pull request page with its token', () => {
    assert.ok(doc.paths['/widget.js']?.get && doc.paths['/widget/demo']?.get);
    assert.ok(doc.paths['/forge/{projectId}/pulls/{number}']?.get?.responses['404']);
  });
});
