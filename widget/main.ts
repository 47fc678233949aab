/**
 * The embeddable assistant: one script tag on any page of an allowed origin,
 *
 *   <script src="https://quire.example.com/widget.js" data-domain="DOMAIN" data-key="quire_dsc_…" async></script>
 *
 * optional `data-title` (launcher and panel title), `data-api` (the API's base
 * URL; default: the folder the script came from, so `https://example.com/quire/widget.js`, behind a
 * proxy's path prefix, talks to `https://example.com/quire`), `data-docs-url` (the docs site
 * for relative links; default: the domain's base URL, as its search hits show it)
 * and `data-language` (a BCP 47 tag for the widget's own words; default: the
 * page's `<html lang>`, else English).
 * It reports each page view with one beacon (page-views.ts).
 */
import { mountWidget } from './panel.js';
import { reportPageViews } from './page-views.js';
import { ThreadStorage } from './thread-storage.js';
import { chooseWords } from './words.js';

function start(script: HTMLScriptElement): void {
  const domain = script.dataset.domain;
  const assistantKey = script.dataset.key;
  if (!domain || !assistantKey) {
    console.warn('Quire widget: add data-domain and data-key to its script tag.');
    return;
  }
  const api = (script.dataset.api ?? new URL('.', new URL(script.src, location.href)).href).replace(/\/+$/, '');
  reportPageViews({ api, domain, assistantKey });
  const mount = () =>
    mountWidget({
      api,
      domain,
      assistantKey,
      title: script.dataset.title,
      docsUrl: script.dataset.docsUrl,
      threads: new ThreadStorage(`quire-widget:${api}:${domain}`),
      // The widget speaks the language `data-language` names, else the page's, else English.
      words: chooseWords(script.dataset.language, document.documentElement.lang),
      pageLang: document.documentElement.lang,
    });
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount, { once: true });
}

const current = document.currentScript;
if (current instanceof HTMLScriptElement) start(current);
