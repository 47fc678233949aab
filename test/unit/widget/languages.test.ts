import assert from 'node:assert/strict';
import { chooseWords, languageKey, WIDGET_LANGUAGES } from '../../../widget/words.js';

describe('widget: the language of its own words', () => {
  it('matches on the primary subtag whatever the case or region', () => {
    for (const tag of ['pt', 'pt-BR', 'PT-pt', 'pt_BR']) assert.equal(chooseWords(tag).lang, 'pt-BR', tag);
    for (const tag of ['fr', 'fr-CA', 'FR']) assert.equal(chooseWords(tag).lang, 'fr', tag);
    assert.equal(chooseWords('de-CH').lang, 'de');
  });

  it('gives Traditional Chinese to the script subtag Hant, and without a script to Taiwan, Hong Kong and Macao', () => {
    for (const tag of ['zh-Hant', 'zh-hant', 'ZH-HANT', 'zh-TW', 'zh-HK', 'zh-MO', 'zh_TW', 'zh-Hant-TW', 'zh-Hant-CN', 'zh-cmn-Hant', 'zh-yue-HK']) {
      assert.equal(languageKey(tag), 'zh-hant', tag);
      assert.equal(chooseWords(tag).lang, 'zh-Hant', tag);
    }
  });

  it('gives Simplified Chinese to zh alone, to the script subtag Hans (whatever the region) and to other regions', () => {
    for (const tag of ['zh', 'ZH', 'zh-CN', 'zh-SG', 'zh-MY', 'zh-Hans', 'zh-Hans-CN', 'zh-Hans-TW', 'zh-Hans-HK', 'zh-Latn', 'zh-419']) {
      assert.equal(languageKey(tag), 'zh', tag);
      assert.equal(chooseWords(tag).lang, 'zh-Hans', tag);
    }
  });

  it('reads no script or region from extensions or private use', () => {
    assert.equal(languageKey('zh-x-tw'), 'zh');
    assert.equal(languageKey('zh-u-nu-hant'), 'zh');
    assert.equal(languageKey('zh-TW-u-ca-roc'), 'zh-hant');
  });

  it('takes the first tag it speaks (data-language, then the page), else English', () => {
    assert.equal(chooseWords('xx-YY', 'zh-TW').lang, 'zh-Hant');
    assert.equal(chooseWords('zh-TW', 'fr').lang, 'zh-Hant');
    assert.equal(chooseWords(undefined, '').lang, 'en');
    assert.equal(chooseWords('tlh').lang, 'en');
    assert.deepEqual(WIDGET_LANGUAGES, ['en', 'fr', 'de', 'es', 'pt', 'ja', 'zh', 'zh-hant']);
  });
});
