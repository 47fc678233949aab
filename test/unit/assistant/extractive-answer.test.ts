import assert from 'node:assert/strict';
import { citationsFor } from '../../../api/assistant/citations.js';
import { unansweredReason } from '../../../api/assistant/completion-record.js';
import { extractiveAnswerer } from '../../../api/assistant/extractive-answerer.js';
import { asksCommand, asksQuantity, bestSentences, countedTerm, sentencesOf, termsOf, termsOnPage } from '../../../api/assistant/passage-sentences.js';
import { buildPrompt } from '../../../api/assistant/prompt.js';
import { wordNoPageHolds } from '../../../api/assistant/uncovered-words.js';
import { tokenise, withinOneEdit, type SearchHit, type Vocabulary } from '../../../core/retrieval/index.js';

const page = (path: string, title: string, content: string): SearchHit => ({ path, content, metadata: { title, anchor: 'start', breadcrumb: [title], score: 1 } });

const MDX = [
  "import { Tabs } from '@site/components';",
  '',
  '<Note type="warning">Webhooks are retried for up to three days when your endpoint fails.</Note>',
  '',
  'To verify a webhook, compute the HMAC of the raw body with your signing secret:',
  '',
  '```ts',
  "const signature = createHmac('sha256', secret).update(body).digest('hex');",
  '```',
  '',
  '| Header | Meaning |',
  '| --- | --- |',
  '',
  '<Tabs>',
  '  <Tab title="Node">Compare it with the `X-Signature` header using a constant-time comparison. See [the guide](/guides/security) for details.</Tab>',
  '</Tabs>',
  '',
  '```bash',
  'curl -X POST https://example.com',
].join('\n');

/** The vocabulary of a site whose pages are `texts`, each cut as `language`'s, with the one-edit typo reading. */
function vocabularyOf(texts: string[], language?: string): Vocabulary {
  const pages = texts.map((text) => new Set(tokenise(text, language)));
  const all = new Set(pages.flatMap((terms) => [...terms]));
  return {
    documentFrequency: (term) => pages.filter((terms) => terms.has(term)).length,
    nearest: (term) => (term.length < 5 ? undefined : [...all].find((word) => withinOneEdit(term, word))),
  };
}

async function answerText(question: string, hits: SearchHit[], language?: string, vocabulary?: Vocabulary): Promise<string> {
  const prompt = buildPrompt({ domain: { id: 'docs', baseUrl: 'https://docs.example.com', supportContact: undefined }, conversation: { question, earlier: [] }, hits, budget: 4000 });
  const citations = citationsFor('https://docs.example.com', prompt.passages);
  const run = extractiveAnswerer().answer({ question, prompt, citations, domain: language ? { language } : {}, vocabulary, signal: new AbortController().signal });
  let text = '';
  for await (const delta of run.deltas) text += delta;
  return text;
}

describe('extractive answers', () => {
  it('takes whole prose sentences: no code, tables, imports or JSX tags, relative links as text, inline code balanced', () => {
    assert.deepEqual(sentencesOf(MDX), [
      'Webhooks are retried for up to three days when your endpoint fails.',
      'Compare it with the `X-Signature` header using a constant-time comparison.',
      'See the guide for details.',
    ]);
  });

  it('keeps inline code as written: what looks like a tag in it is text, and a relative link with code as its text becomes that code', () => {
    const passage = [
      "A job that exhausts its attempts moves to the queue's dead-letter queue,",
      '`<queue>.dlq`. Set ``retry: { at: `<time>` }`` on a push, or see [`<Steps>`](/components/steps) and <Note>the `<Tabs>` tag</Note>.',
    ].join('\n');
    assert.deepEqual(sentencesOf(passage), [
      "A job that exhausts its attempts moves to the queue's dead-letter queue, `<queue>.dlq`.",
      'Set ``retry: { at: `<time>` }`` on a push, or see `<Steps>` and the `<Tabs>` tag.',
    ]);
  });

  it('reads the question as each page is written: a German page with its stemmer on a site of no language, any BCP 47 tag of a domain', async () => {
    const de: SearchHit = {
      path: '/de/backups',
      content: 'Backups laufen jede Nacht um 2 Uhr. Eine neue Sicherung erstellen Sie im Dashboard unter Speicher.',
      metadata: { title: 'Backups', anchor: '', breadcrumb: ['Backups'], score: 1, language: 'de' },
    };
    assert.match(await answerText('Wie erstelle ich Sicherungen?', [de]), /Eine neue Sicherung erstellen Sie im Dashboard unter Speicher\. \[1\]/);
    // Tags whose language has no stemmer of its own, or with a region, are read as their language (English here), not refused.
    const en = page('/guides/install', 'Installation', 'Install the CLI with npm. It needs Node 20 or later. Run quire --help to see the commands.');
    for (const tag of ['en', 'pt-BR', 'de-CH']) assert.match(await answerText('Which Node version does the CLI need?', [en], tag), /It needs Node 20 or later\. \[1\]/);
  });

  it('answers a question that asks how many with the sentence that states a number, of those that share as many of its terms or one more', () => {
    const passage = 'Each attempt is logged with its output. The default is 5 attempts per job.';
    const question = (q: string) => ({ terms: termsOf(q, undefined), language: undefined, quantity: asksQuantity(q) });
    assert.deepEqual(bestSentences(passage, question('How many attempts?'), 1).map((s) => s.sentence), ['The default is 5 attempts per job.']);
    assert.deepEqual(bestSentences(passage, question('Where are attempts shown?'), 1).map((s) => s.sentence), ['Each attempt is logged with its output.']);
    // The number answers the "how long" itself: it counts as one more of the question's terms.
    const kept = 'Idempotency keys are stored with each request. Each key expires after 24 hours.';
    assert.deepEqual(bestSentences(kept, question('How long are idempotency keys kept?'), 1).map((s) => s.sentence), ['Each key expires after 24 hours.']);
    // "How many times": a sentence that states a number of times answers it, before one that shares more of the question's other words.
    const retried = 'A webhook that fails every delivery for 3 days is turned off. Otherwise Orrery retries up to 8 times over 24 hours.';
    const times = termsOnPage(question('How many times is a failed webhook delivery retried?'), 'Webhooks', retried);
    assert.deepEqual(bestSentences(retried, { ...times, counted: countedTerm('How many times is a failed webhook delivery retried?', undefined) }, 1).map((s) => s.sentence), [
      'Otherwise Orrery retries up to 8 times over 24 hours.',
    ]);
    assert.deepEqual(bestSentences(retried, times, 1).map((s) => s.sentence), ['A webhook that fails every delivery for 3 days is turned off.']);
    assert.equal(countedTerm('Combien de tentatives ?', 'fr'), termsOf('tentatives', 'fr').values().next().value);
    assert.equal(countedTerm('失敗したジョブは何回試される？', undefined), '回');
    assert.equal(countedTerm('How long is a job kept?', undefined), undefined);
    for (const q of ['how long is a job kept', 'Wie oft wird ein Job versucht?', 'Combien de tentatives ?', '¿Cuántos intentos hace?', 'сколько попыток', '失敗したジョブは何回試される？', '重试多少次', '몇 번 재시도하나요', 'كم مرة يعاد التشغيل']) {
      assert.equal(asksQuantity(q), true, q);
    }
    for (const q of ['How do I install it?', 'Wie installiere ich das SDK?', 'Comment vérifier une signature ?', 'CLIのインストール方法']) assert.equal(asksQuantity(q), false, q);
  });

  it('quotes the command a question asks for under its heading, beside a sentence that shares more of its words', async () => {
    const quickstart = page(
      '/fr/quickstart',
      'Démarrage rapide',
      [
        "Cette page vous guide de l'installation de l'outil en ligne de commande jusqu'à votre première tâche.",
        '',
        '## Installer la CLI',
        '',
        'Installez la CLI avec npm :',
        '',
        '```bash',
        'npm install -g @tessera/cli',
        '```',
      ].join('\n'),
    );
    const asked = await answerText("Quelle commande pour installer l'outil en ligne de commande ?", [quickstart], 'fr');
    assert.match(asked, /Installez la CLI avec npm : \[1\]\n\n```bash\nnpm install -g @tessera\/cli\n```/);
    assert.doesNotMatch(await answerText("Comment installer l'outil en ligne de commande ?", [quickstart], 'fr'), /npm install/, 'the command line named, no command asked for: the sentence that shares more');
    for (const q of ['Which command rotates a key?', 'Welcher Befehl startet den Worker?', 'comando para instalar la CLI', 'CLIを入れるコマンドを教えて', 'какая команда']) assert.equal(asksCommand(q), true, q);
    // Something to do from the command line is done by a command.
    for (const q of ['restore a folder from the command line', 'Einen Ordner über die Kommandozeile zurückholen', 'Status im Terminal ansehen']) assert.equal(asksCommand(q), true, q);
    for (const q of ['How do I use the command line?', "l'outil en ligne de commande", '用 npm 怎么装命令行工具', 'コマンドラインツール']) assert.equal(asksCommand(q), false, q);
  });

  it("reads a question's misspelt word as the page's word one edit away, as retrieval does, and leaves short words as written", async () => {
    const webhooks = page('/guides/webhooks', 'Webhooks', 'Webhooks are retried for three days. The signature is sent in the X-Signature header.');
    assert.match(await answerText('where is the signture?', [webhooks]), /The signature is sent in the X-Signature header\. \[1\]/);
    const question = { terms: termsOf('signture dyas', undefined), language: undefined };
    assert.deepEqual([...termsOnPage(question, 'Webhooks', webhooks.content).terms].sort(), ['dya', 'signatur'], '`dyas` (`dya`) is too short to correct');
    assert.equal(termsOnPage({ terms: termsOf('signature', undefined), language: undefined }, 'Webhooks', webhooks.content).terms.has('signatur'), true);
  });

  it('answers with the sentences closest to the question, cited per page, in valid Markdown with no component', async () => {
    const text = await answerText('How do I verify a webhook signature?', [
      page('/guides/webhooks', 'Webhooks', MDX),
      page('/guides/install', 'Installation', 'Install the CLI with npm. It needs Node 20 or later. Run quire --help to see the commands.'),
    ]);
    assert.match(text, /Compare it with the `X-Signature` header using a constant-time comparison\. .*\[1\]/);
    assert.match(text, /\[2\]/);
    assert.equal((text.match(/^\s*(```|~~~)/gm) ?? []).length % 2, 0, 'balanced fences');
    assert.doesNotMatch(text, /<\/?[A-Z][\w.]*/, 'no JSX component');
    assert.doesNotMatch(text, /^import /m);
    // The snippet the question asks for, with the page's line that introduces it; not the block the passage cuts off.
    assert.match(text, /To verify a webhook, compute the HMAC of the raw body with your signing secret: \[1\]\n\n```ts\nconst signature = createHmac\('sha256', secret\)\.update\(body\)\.digest\('hex'\);\n```/);
    assert.doesNotMatch(text, /curl -X POST/);
  });

  it('reads a hard-wrapped paragraph as one, so a sentence is never cut at a line end, and each list item as its own', () => {
    const wrapped = [
      'When a worker takes a job, the job is invisible to other workers for its',
      '**visibility timeout** (30 seconds by default). A worker that runs longer must',
      'extend the lease with `job.heartbeat()`; otherwise the job goes to',
      'another worker.',
      '- Retries back off exponentially',
      '  up to six hours.',
      '- A failed job keeps its last error',
    ].join('\n');
    assert.deepEqual(sentencesOf(wrapped), [
      'When a worker takes a job, the job is invisible to other workers for its **visibility timeout** (30 seconds by default).',
      'A worker that runs longer must extend the lease with `job.heartbeat()`; otherwise the job goes to another worker.',
      'Retries back off exponentially up to six hours.',
      'A failed job keeps its last error.',
    ]);
  });

  it('introduces a quoted block with the whole sentence before it, however it is wrapped', async () => {
    const text = await answerText('How do I log in with the CLI?', [
      page('/cli', 'CLI', 'Install the `orbit` command line tool and log in with your\naccount:\n\n```bash\norbit login\n```'),
    ]);
    assert.match(text, /Install the `orbit` command line tool and log in with your account: \[1\]\n\n```bash\norbit login\n```/);
  });

  it("compares a question and a page in the domain's language: an inflected German word meets its page's form", async () => {
    const page1 = page('/sicherung', 'Sicherung', 'Das Archiv liegt im Speicher des Servers. Jede Sicherung beginnt um drei Uhr nachts.');
    const german = await answerText('Wann starten die Sicherungen?', [page1], 'de');
    assert.match(german, /^Jede Sicherung beginnt um drei Uhr nachts\. \[1\]/m);
    assert.doesNotMatch(german, /Archiv/, 'the sentence that shares nothing is not quoted beside it');
  });

  it('quotes a short list whole under its lead-in when it meets the question better than a sentence, and none of its items twice', async () => {
    const exportPage = [
      'Depuis **Comptabilité → Exporter**, choisissez une période et un format :',
      '',
      '- **CSV** : une ligne par facture ou par paiement ;',
      "- **FEC** : le fichier des écritures comptables exigé par l'administration fiscale ;",
      '- **PDF** : une archive ZIP de toutes les factures de la période.',
      '',
      "Les exports peuvent être envoyés automatiquement chaque mois à l'adresse de votre comptable.",
    ].join('\n');
    const text = await answerText('Dans quels formats exporter les écritures pour mon comptable ?', [page('/export', 'Export comptable', exportPage)], 'fr');
    assert.match(
      text,
      /Depuis \*\*Comptabilité → Exporter\*\*, choisissez une période et un format : \[1\]\n\n- \*\*CSV\*\* : une ligne par facture ou par paiement ;\n- \*\*FEC\*\* : .*\n- \*\*PDF\*\* : une archive ZIP de toutes les factures de la période\.\n\n/,
    );
    assert.equal(text.match(/\*\*FEC\*\*/g)?.length, 1, 'an item is not quoted again as a sentence');
    const long = Array.from({ length: 9 }, (_, i) => `- Format ${i + 1} exports the invoices of a period`).join('\n');
    assert.doesNotMatch(await answerText('Which formats export invoices?', [page('/export', 'Export', `Choose a format:\n\n${long}`)]), /Format 9/, 'a list of more than eight items is left to the page');
  });

  it('quotes a list item that ends in a semicolon or a comma with a full stop instead', () => {
    assert.deepEqual(sentencesOf('- **CSV** : une ligne par facture ou par paiement ;\n- **FEC** : le fichier des écritures comptables exigé,\n- **PDF** : une archive ZIP de toutes les factures.'), [
      '**CSV** : une ligne par facture ou par paiement.',
      '**FEC** : le fichier des écritures comptables exigé.',
      '**PDF** : une archive ZIP de toutes les factures.',
    ]);
  });

  it('does not end a sentence at an abbreviation: a short lower-case word and its stop before a number, or a letter and its stop', () => {
    assert.deepEqual(sentencesOf("La franchise en base de TVA est prévue à l'art. 293 B du CGI. Elle s'applique sous un seuil de chiffre d'affaires."), [
      "La franchise en base de TVA est prévue à l'art. 293 B du CGI.",
      "Elle s'applique sous un seuil de chiffre d'affaires.",
    ]);
    assert.deepEqual(sentencesOf('Sichern Sie Ordner, z. B. Dokumente und Bilder. Der Agent läuft im Hintergrund.'), ['Sichern Sie Ordner, z. B. Dokumente und Bilder.', 'Der Agent läuft im Hintergrund.']);
    assert.deepEqual(sentencesOf('The limits are shown in fig. 3 of the guide. Each key was done. The next one starts now.'), [
      'The limits are shown in fig. 3 of the guide.',
      'Each key was done.',
      'The next one starts now.',
    ]);
  });

  it('cuts sentences written without spaces or capitals: at 。！？, and at Arabic and Hebrew full stops and ؟', () => {
    assert.deepEqual(sentencesOf('キーは作成した直後に一度だけ表示されます。安全な場所に保存してください！無効化は取り消せません'), [
      'キーは作成した直後に一度だけ表示されます。',
      '安全な場所に保存してください！',
      '無効化は取り消せません.',
    ]);
    assert.deepEqual(sentencesOf('افتح الإعدادات في لوحة التحكم. هل يظهر المفتاح مرة واحدة فقط؟ لا يمكن التراجع عن الإلغاء أبدًا.'), [
      'افتح الإعدادات في لوحة التحكم.',
      'هل يظهر المفتاح مرة واحدة فقط؟',
      'لا يمكن التراجع عن الإلغاء أبدًا.',
    ]);
  });

  it('quotes the sentence of a Chinese, Japanese or Korean page that shares words with the question', async () => {
    const ja = await answerText('APIキーをローテーションするには？', [
      page('/ja/api-keys', 'APIキー', 'キーはプロジェクトごとに発行されます。無効化は取り消せません。キーをローテーションするときは、新しいキーを作成してから環境変数を更新します。'),
    ]);
    assert.match(ja, /キーをローテーションするときは、新しいキーを作成してから環境変数を更新します。 \[1\]/);
    assert.doesNotMatch(ja, /無効化/);
    const ko = await answerText('API 키 교체 방법', [
      page('/ko/api-keys', 'API 키', '폐기는 되돌릴 수 없습니다. 키는 프로젝트별로 발급됩니다. 키를 교체하려면 먼저 새 키를 만든 다음 환경 변수를 바꿉니다.'),
    ]);
    assert.match(ko, /키를 교체하려면 먼저 새 키를 만든 다음 환경 변수를 바꿉니다\. \[1\]/);
    assert.doesNotMatch(ko, /발급/);
  });

  it('does not count pairs of hiragana (Japanese grammar: です, ます, した) as words a Japanese sentence shares with the question', async () => {
    assert.deepEqual([...termsOf('料金はいくらですか？', undefined)], ['料金', '金は']);
    const answer = await answerText('料金はいくらですか？', [page('/ja/retries', 'リトライ', 'ジョブは7日間保存されます。ダッシュボードから再実行できます。')]);
    assert.match(answer, /^The documentation does not seem to cover this question\./);
  });

  it('quotes the command a reader asks for, under its heading, rather than sentences that do not meet the question', async () => {
    const quickstart = [
      '## Set up the client',
      '',
      '```bash',
      'pip install orbit-client',
      '```',
      '',
      'Setup takes a few minutes on most machines.',
      '',
      '**Upgrade the client**',
      '',
      '```bash',
      'pip install --upgrade orbit-client',
      '```',
    ].join('\n');
    const text = await answerText('How do I upgrade the client?', [page('/quickstart', 'Quickstart', quickstart), page('/faq', 'FAQ', '```bash\norbit upgrade --client\n```\n\nUpgrades are free for every plan.')]);
    assert.match(text, /\*\*Upgrade the client\*\*: \[1\]\n\n```bash\npip install --upgrade orbit-client\n```/);
    assert.doesNotMatch(text, /\*\*Upgrade the client\*\*\./, 'a bold line alone is a heading, not a sentence');
    assert.doesNotMatch(text, /Setup takes a few minutes/, 'no sentence that shares nothing with the question beside the code');
    assert.match(text, /Upgrades are free for every plan\. \[2\]/);
    assert.doesNotMatch(text, /orbit upgrade --client/, "only the best page's code is quoted");
  });

  it('keeps to prose when a sentence meets the question better than any code, and leaves out long code', async () => {
    const keys = [
      'A project key starts with `ok_live_` and is shown once when the project is created.',
      '',
      '## Create a project',
      '',
      '```bash',
      'orbit projects create demo',
      '```',
      '',
      '```js',
      ...Array.from({ length: 16 }, (_, i) => `console.log('project key line ${i}');`),
      '```',
    ].join('\n');
    const text = await answerText('What does a project key start with?', [page('/keys', 'Keys', keys)]);
    assert.match(text, /A project key starts with `ok_live_` and is shown once when the project is created\. \[1\]/);
    assert.doesNotMatch(text, /```/);
  });

  it("marks the gap between sentences of different paragraphs, and leaves another section's code that meets the question no better than the best sentence", async () => {
    const keys = [
      '## Rotating keys',
      '',
      'Rotate a key every ninety days. Old keys keep working for a day.',
      '',
      'Long-lived services rotate their keys with the same command.',
      '',
      '## Calling the API',
      '',
      'Send the key as a bearer token:',
      '',
      '```bash',
      'curl -H "Authorization: Bearer $KEY" https://api.example.com',
      '```',
    ].join('\n');
    const text = await answerText('How do I rotate a key?', [page('/keys', 'Keys', keys)]);
    assert.match(text, /Rotate a key every ninety days\. … Long-lived services rotate their keys with the same command\. \[1\]/);
    assert.doesNotMatch(text, /curl/);
  });

  it("reads a sentence with its section's heading, as a code block is read: another section's block must meet the question better than both", async () => {
    // The example docs' Authentication page as retrieval joins it: the best section first, then the page's opening with its curl call.
    const rotating = [
      '## Rotating keys',
      '',
      'Create a new key, deploy it, then revoke the old one with',
      '`skylark keys revoke KEY_ID`. Revoked keys fail with `401 unauthorized` within a minute.',
    ].join('\n');
    const opening = [
      'Send your project key as a bearer token on every request:',
      '',
      '```bash',
      'curl https://api.skylark.dev/v2/queues/emails/jobs \\',
      '  -H "Authorization: Bearer $SKYLARK_API_KEY"',
      '```',
    ].join('\n');
    const path = '/api-reference/authentication';
    const text = await answerText('How do I rotate an API key?', [page(path, 'Authentication', rotating), page(path, 'Authentication', opening)]);
    assert.match(text, /Create a new key, deploy it, then revoke the old one with `skylark keys revoke KEY_ID`\. Revoked keys fail with `401 unauthorized` within a minute\. \[1\]/);
    assert.doesNotMatch(text, /curl|bearer token/);
  });

  it('does not answer with code that meets the question only by a word inside it', async () => {
    const queues = ['## Ordering and FIFO queues', '', '```ts', "await skylark.queue('invoices.fifo').push({ type: 'charge', groupKey: 'customer-17' });", '```'].join('\n');
    const text = await answerText('Can I pay by invoice?', [page('/concepts/queues', 'Queues', queues)]);
    assert.match(text, /^The documentation does not seem to cover this question\. The closest pages: \*\*Queues\*\* \[1\]/);
    assert.doesNotMatch(text, /invoices\.fifo/);
  });

  it('quotes the rows of a table that say what was asked, with the table header, under the section heading', async () => {
    const limits = [
      '## Limits',
      '',
      'Requests over a limit are answered with `429`.',
      '',
      '| Scope | Limit |',
      '|---|---:|',
      '| Per token | 600 requests per minute |',
      '| Per organization, all tokens | 3,000 requests per minute |',
      '| Per IP address | 100 requests per minute |',
    ].join('\n');
    const text = await answerText('What is the limit per organization for all tokens?', [page('/limits', 'Rate limits', limits)]);
    assert.match(text, /\*\*Limits\*\*: \[1\]\n\n\| Scope \| Limit \|\n\|---\|---:\|\n\| Per organization, all tokens \| 3,000 requests per minute \|\n\n/);
    assert.doesNotMatch(text, /600 requests|100 requests/, 'only the rows that meet the question best');
  });

  it('prefers, of a table and a code block that share as many of the question terms, the one whose heading or lead-in shares more', async () => {
    const path = '/api-reference/authentication';
    const opening = ['Send your project key as a bearer token on every request:', '', '```bash', 'curl https://api.skylark.dev/v2/jobs \\', '  -H "Authorization: Bearer $SKYLARK_API_KEY" \\', '  -H "Content-Type: application/json"', '```'].join('\n');
    const types = ['## Key types', '', '| Prefix | Type | Can |', '|---|---|---|', '| `sk_live_` | project key | push jobs |', '| `sk_read_` | read-only key | read jobs |'].join('\n');
    const text = await answerText('What are the key types?', [page(path, 'Authentication', types), page(path, 'Authentication', opening)]);
    assert.match(text, /\*\*Key types\*\*: \[1\]\n\n\| Prefix \| Type \| Can \|\n\|---\|---\|---\|\n\| `sk_live_` \| project key \| push jobs \|\n\| `sk_read_` \| read-only key \| read jobs \|/);
    assert.doesNotMatch(text, /curl/);
  });

  it("leaves out a table whose header the passage cut off, and a table that meets the question less than the page's sentence", async () => {
    const cut = ['| Per organization, all tokens | 3,000 requests per minute |', '| Per IP address | 100 requests per minute |'].join('\n');
    assert.doesNotMatch(await answerText('limit per organization for all tokens', [page('/limits', 'Rate limits', cut)]), /3,000/);
    const both = ['Each organization may send 3,000 requests per minute with all its tokens together.', '', '| Scope | Limit |', '|---|---|', '| Per organization | 3,000 |'].join('\n');
    const text = await answerText('limit per organization for all tokens', [page('/limits', 'Rate limits', both)]);
    assert.match(text, /Each organization may send 3,000 requests per minute with all its tokens together\. \[1\]/);
    assert.doesNotMatch(text, /\| Scope/);
  });

  it('quotes the code of a page that has nothing else, under its title', async () => {
    const text = await answerText('curl', [page('/api/curl', 'Calling the *API*', '```bash\ncurl https://api.example.com\n```')]);
    assert.match(text, /\*\*Calling the \\\*API\\\*\*\*: \[1\]\n\n```bash\ncurl https:\/\/api\.example\.com\n```/);
  });

  it('reads the opening of a page (before its first heading) under the page’s title: “how does authentication work” quotes the Authentication page’s first command', async () => {
    const opening = ['Send your project key as a bearer token on every request:', '', '```bash', 'curl https://api.example.com/v2/jobs -H "Authorization: Bearer $KEY"', '```'].join('\n');
    const hits: SearchHit[] = [
      { path: '/api/authentication', content: opening, metadata: { title: 'Authentication', anchor: '', breadcrumb: ['Authentication'], score: 1 } },
      page('/guides/metrics', 'Metrics', 'Each project exposes a metrics endpoint (authenticate with a read-only key).'),
    ];
    const text = await answerText('How does authentication work?', hits);
    assert.match(text, /Send your project key as a bearer token on every request: \[1\]\n\n```bash\ncurl /);
    // A passage from further down the page is not its opening: its section's heading is its own.
    const further = { ...hits[0]!, metadata: { ...hits[0]!.metadata, anchor: 'keys' } };
    assert.doesNotMatch(await answerText('How does authentication work?', [further, hits[1]!]), /```bash/);
  });

  it('meets a word of the question in its derived form on the page (`authenticate`, `Authentication`), but not a short word in a longer one (`count`, `country`)', async () => {
    const opening = ['Send your project key as a bearer token on every request:', '', '```bash', 'curl https://api.example.com/v2/jobs', '```'].join('\n');
    const hits: SearchHit[] = [{ path: '/api/authentication', content: opening, metadata: { title: 'Authentication', anchor: '', breadcrumb: ['Authentication'], score: 1 } }];
    assert.match(await answerText('how do i authenticate', hits), /on every request: \[1\]\n\n```bash/);
    const question = { terms: termsOf('How do I count the invoices?', undefined), language: undefined };
    assert.equal(termsOnPage(question, 'Billing', 'Choose the country on your invoices.').terms.has('count'), true);
  });

  it('says the docs do not seem to cover a question nothing in its pages meets, names the closest pages, and counts it unanswered', async () => {
    const hits = [page('/queues', 'Queues', 'A queue holds jobs until a worker takes them.'), page('/workers', 'Workers', 'Workers poll their queues for new jobs.')];
    const prompt = buildPrompt({ domain: { id: 'docs', baseUrl: 'https://docs.example.com', supportContact: undefined }, conversation: { question: 'Can I pay by invoice?', earlier: [] }, hits, budget: 4000 });
    const citations = citationsFor('https://docs.example.com', prompt.passages);
    const run = extractiveAnswerer().answer({ question: 'Can I pay by invoice?', prompt, citations, domain: { supportContact: 'billing@example.com' }, signal: new AbortController().signal });
    let text = '';
    for await (const delta of run.deltas) text += delta;
    assert.equal(text, 'The documentation does not seem to cover this question. Please contact billing@example.com. The closest pages: **Queues** [1], **Workers** [2].\n\n');
    assert.equal(run.matched, false);
    assert.equal(unansweredReason('extractive', citations, text, true, run.matched), 'no_match');
    // A question its pages meet is answered.
    const met = extractiveAnswerer().answer({ question: 'What does a queue hold?', prompt, citations, domain: {}, signal: new AbortController().signal });
    assert.equal(met.matched, true);
    assert.equal(unansweredReason('extractive', citations, '', true, met.matched), null);
  });

  it('names a page it cannot quote', async () => {
    const text = await answerText('billing', [page('/plans', 'Plans and *billing*', '| Plan | Price |\n| --- | --- |\n| Free | 0 |')]);
    assert.match(text, /See also \*\*Plans and \\\*billing\\\*\*\* \[1\]\./);
  });

  describe('a question about a name no page of the site holds', () => {
    const SITE = [
      'Skylark streams flag changes to your servers. Subscriptions to a project notify you of every change.',
      'The REST API supports pagination with cursors. Webhooks notify your server of changes.',
      'Die Zwei-Faktor-Anmeldung schützt das Konto. Die Sicherung läuft jede Nacht.',
    ];
    const vocabulary = vocabularyOf(SITE);
    const hits = [page('/streaming', 'Streaming', SITE[0]!), page('/api', 'REST API', SITE[1]!)];

    it('declines it, though the pages found share its other words, and names the closest pages', async () => {
      const text = await answerText('Does Skylark support GraphQL subscriptions?', hits, undefined, vocabulary);
      assert.match(text, /^The documentation does not seem to cover this question\. The closest pages: \*\*Streaming\*\* \[1\]/);
    });

    it('quotes the pages as before when the name is on a page, is misspelt from one, or no vocabulary is at hand', async () => {
      assert.match(await answerText('Does Skylark support GraphQL subscriptions?', hits, undefined, vocabularyOf([...SITE, 'GraphQL is not offered.'])), /^_No language model/);
      assert.match(await answerText('Does the REST API support PagiNation?', hits, undefined, vocabulary), /^_No language model/);
      assert.match(await answerText('Does the REST API support PagiNaton?', hits, undefined, vocabulary), /^_No language model/);
      assert.match(await answerText('Does Skylark support GraphQL subscriptions?', hits), /^_No language model/);
    });

    it('looks a word up as the index cut the pages: as English on a site of no language, whatever language its best page is in', async () => {
      const french = 'NOVATIONS exécute vos tâches en arrière-plan. Installez NOVATIONS avec npm.';
      const hit: SearchHit = { path: '/fr/quickstart', content: french, metadata: { title: 'Démarrage', anchor: '', breadcrumb: ['Démarrage'], score: 1, language: 'fr' } };
      // The French stemmer cuts `NOVATIONS` to `novat`, which the English-cut index does not hold.
      assert.match(await answerText('Comment installer NOVATIONS ?', [hit], undefined, vocabularyOf([french])), /^_No language model/);
      assert.match(await answerText('Comment installer NOVATIONS ?', [hit], 'fr', vocabularyOf([french], 'fr')), /^_No language model/);
    });

    it('judges only names of five letters or more, written with a capital after their first letter, and a joined word by its parts', () => {
      assert.equal(wordNoPageHolds('Does Skylark support GraphQL subscriptions?', undefined, vocabulary, undefined), 'graphql');
      assert.equal(wordNoPageHolds('Can I pay with PayPal?', undefined, vocabulary, undefined), 'paypal');
      // Words no page holds, but plain ones (a paraphrase's), short, or numbers: the pages may say them otherwise.
      assert.equal(wordNoPageHolds('How do I avoid downtime together with the RSS feed in v12345?', undefined, vocabulary, undefined), undefined);
      assert.equal(wordNoPageHolds('Is the Zwei-Faktor-Anmeldung available?', undefined, vocabulary, undefined), undefined, 'its parts are on a page');
      assert.equal(wordNoPageHolds('Gibt es den Agenten für FreeBSD?', 'de', vocabularyOf(SITE, 'de'), 'de'), 'freebsd');
      // Chinese and Japanese are cut into character pairs, which cross words: they are not judged.
      assert.equal(wordNoPageHolds('料金プランはいくらですか', undefined, vocabulary, undefined), undefined);
    });

    it('judges a word in Latin letters in a question of another script as a name, though it runs on into that script or opens the question', () => {
      assert.equal(wordNoPageHolds('GraphQLの料金はいくらですか', undefined, vocabulary, undefined), 'graphql');
      assert.equal(wordNoPageHolds('Python用のSDKはありますか？', undefined, vocabulary, undefined), 'python');
      assert.equal(wordNoPageHolds('Slack으로 실패 알림을 받을 수 있나요?', undefined, vocabulary, undefined), 'slack');
      assert.equal(wordNoPageHolds('Можно ли запускать задачи в docker?', 'ru', vocabularyOf(SITE, 'ru'), 'ru'), 'docker');
      assert.equal(wordNoPageHolds('Skylark으로 알림을 받을 수 있나요?', undefined, vocabulary, undefined), undefined, 'a page holds it');
      assert.equal(wordNoPageHolds('python sdk where', undefined, vocabulary, undefined), undefined, 'a question in Latin letters');
    });

    it('judges a word with a capital inside a sentence as a name, but not in German, nor an English word of a people, a language, a day or a month', () => {
      assert.equal(wordNoPageHolds('How do I stream flag changes to Heroku?', undefined, vocabulary, undefined), 'heroku');
      assert.equal(wordNoPageHolds('Skylark and webhooks. Slack too?', undefined, vocabulary, undefined), undefined, 'it opens a sentence');
      assert.equal(wordNoPageHolds('¿Skylark funciona con Heroku?', 'es', vocabularyOf(SITE, 'es'), 'es'), 'heroku');
      assert.equal(wordNoPageHolds('Comment synchroniser Skylark avec Pennylane ?', 'fr', vocabularyOf(SITE, 'fr'), 'fr'), 'pennylan');
      assert.equal(wordNoPageHolds('Kann ich die Sicherung auf Englisch umstellen?', 'de', vocabularyOf(SITE, 'de'), 'de'), undefined);
      assert.equal(wordNoPageHolds('Do Skylark webhooks reach the European region every Monday in January?', undefined, vocabulary, undefined), undefined);
    });
  });
});
