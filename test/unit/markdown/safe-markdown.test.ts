import assert from 'node:assert/strict';
import { isSafeLink, safeMarkdown } from '../../../core/markdown/index.js';

describe('safe Markdown links', () => {
  it('lets http(s), mailto and relative links through', () => {
    for (const url of ['https://docs.example.com/guides/install', 'HTTP://docs.example.com', 'mailto:help@example.com', '/guides/install', 'guides/install', '#install', '?q=cli', '//cdn.example.com/a']) {
      assert.equal(isSafeLink(url), true, url);
    }
  });

  it('refuses every other scheme, as the browser reads it: tabs, newlines and control characters dropped', () => {
    const refused = ['javascript:alert(1)', 'JaVaScRiPt:alert(1)', ' javascript:alert(1)', 'java\tscript:alert(1)', 'java\nscript:alert(1)', '\x01javascript:alert(1)', '\x00javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:msgbox(1)', 'file:///etc/passwd', 'http://[bad'];
    for (const url of refused) assert.equal(isSafeLink(url), false, JSON.stringify(url));
  });

  it('renders mailto links as links, and refused ones as text', () => {
    const html = safeMarkdown().render('[mail](mailto:help@example.com) [trap](javascript:alert(1))');
    assert.match(html, /<a href="mailto:help@example\.com" rel="noopener noreferrer nofollow">mail<\/a>/);
    assert.match(html, /\[trap\]\(javascript:alert\(1\)\)/);
  });
});
