import assert from 'node:assert/strict';
import { hitsInBestVersion, hitsInQuestionLanguage, questionLanguage } from '../../../core/retrieval/index.js';
import type { SearchHit } from '../../../core/retrieval/index.js';

const hit = (path: string, language?: string, version?: string): SearchHit => ({
  path,
  content: '',
  metadata: { title: path, anchor: '', breadcrumb: [path], score: 1, ...(language ? { language } : {}), ...(version ? { version } : {}) },
});

describe('the language a question is written in', () => {
  it("tells apart the languages of a site's pages by the question's function words, short questions too", () => {
    const site = ['en', 'fr', 'de'];
    assert.equal(questionLanguage('How do I install it?', site), 'en');
    // A statistical detector reads this one as French.
    assert.equal(questionLanguage('Can I pay by invoice?', site), 'en');
    assert.equal(questionLanguage('Comment installer le SDK ?', site), 'fr');
    assert.equal(questionLanguage("Puis-je payer par facture ?", site), 'fr');
    assert.equal(questionLanguage('Wie installiere ich das SDK?', site), 'de');
    assert.equal(questionLanguage('¿Cómo instalo el SDK?', ['en', 'es']), 'es');
  });

  it('says nothing when the question has no function word, when two languages tie, or when a candidate of its script is one it knows no words of', () => {
    assert.equal(questionLanguage('webhook signature', ['en', 'fr']), undefined);
    assert.equal(questionLanguage('SSO', ['en', 'fr']), undefined);
    assert.equal(questionLanguage('webhooks on retry', ['en', 'fr']), undefined, '`on` is a function word of both');
    assert.equal(questionLanguage('How do I install it?', ['en', 'pl']), undefined, 'Polish is written in Latin letters too, and its function words are not known here');
    assert.equal(questionLanguage('Как установить CLI?', ['en', 'fr']), undefined, 'no candidate is written in Cyrillic');
  });

  it('tells a question by its script when one of the languages is written in it, whatever words it uses', () => {
    const site = ['ja', 'zh', 'ko', 'ru', 'ar', 'de', 'fr', 'es'];
    assert.equal(questionLanguage('CLIを入れるコマンドを教えて', site), 'ja', 'kana beside a Latin name and kanji');
    assert.equal(questionLanguage('如何安装命令行工具', site), 'zh', 'kanji alone, and Chinese is one of the languages');
    assert.equal(questionLanguage('最大試行回数', ['ja', 'en']), 'ja', 'kanji alone, and Japanese is the one language written in them');
    assert.equal(questionLanguage('CLI 설치 방법', site), 'ko');
    assert.equal(questionLanguage('Как настроить API ключ?', site), 'ru', 'most of its letters are Cyrillic');
    assert.equal(questionLanguage('كيف اثبت اداة سطر الاوامر', site), 'ar');
    assert.equal(questionLanguage('Wie installiere ich das SDK?', site), 'de', 'among the Latin-written languages, by function words');
    assert.equal(questionLanguage('How do I install it?', ['en', 'ja']), 'en', 'the one language of the site written in Latin letters');
    assert.equal(questionLanguage('Ինչպես տեղադրել CLI-ը', ['en', 'hy']), 'hy');
    assert.equal(questionLanguage('CLI ஐ எப்படி நிறுவுவது', ['en', 'ta']), 'ta');
    assert.equal(questionLanguage('Kako da instaliram alat?', ['sr', 'ru']), 'sr', 'Serbian in Latin letters');
    assert.equal(questionLanguage('Kako da instaliram alat?', ['en', 'sr']), 'sr', 'beside English, by function words');
    assert.equal(questionLanguage('How do I install the tool?', ['en', 'sr']), 'en');
    assert.equal(questionLanguage('CLI nasıl kurulur ve nasıl güncellenir?', ['en', 'tr']), 'tr', 'by function words, now that Turkish has them');
  });

  it('keeps the hits in the question language and those of no language, only when the hits are in several languages', () => {
    const hits = [hit('/quickstart', 'en'), hit('/fr/quickstart', 'fr'), hit('/cli', 'en-GB'), hit('/changelog')];
    assert.deepEqual(hitsInQuestionLanguage(hits, 'How do I install it?').map((h) => h.path), ['/quickstart', '/cli', '/changelog']);
    assert.deepEqual(hitsInQuestionLanguage(hits, 'Comment installer le SDK ?').map((h) => h.path), ['/fr/quickstart', '/changelog']);
    assert.deepEqual(hitsInQuestionLanguage(hits, 'quickstart').map((h) => h.path), hits.map((h) => h.path), 'no function word: every hit');
    const english = [hit('/quickstart', 'en'), hit('/changelog')];
    assert.equal(hitsInQuestionLanguage(english, 'Comment installer le SDK ?'), english, 'one language among the hits: nothing to choose');
  });
});

describe('the version a question is answered from', () => {
  it("keeps the best versioned hit's version and the hits of no version, only when the hits are of several versions", () => {
    const hits = [hit('/changelog'), hit('/v2/quickstart', undefined, 'v2'), hit('/v1/quickstart', undefined, 'v1'), hit('/v2/cli', undefined, 'v2')];
    assert.deepEqual(hitsInBestVersion(hits).map((h) => h.path), ['/changelog', '/v2/quickstart', '/v2/cli']);
    assert.deepEqual(hitsInBestVersion([hits[2]!, ...hits]).map((h) => h.path), ['/v1/quickstart', '/changelog', '/v1/quickstart']);
    const one = [hit('/v2/quickstart', undefined, 'v2'), hit('/changelog')];
    assert.equal(hitsInBestVersion(one), one);
  });
});
