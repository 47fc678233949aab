import assert from 'node:assert/strict';
import { stem, termId, tokenise } from '../../../core/retrieval/tokenise.js';
import { STEMMED_LANGUAGES, stemmingLanguage } from '../../../core/retrieval/stemmers.js';

describe('tokenise', () => {
  it('keeps identifiers whole and also splits them into parts', () => {
    assert.deepEqual(tokenise('retrievalPageSize'), ['retrievalpagesize', 'retrieval', 'page', 'size']);
    assert.deepEqual(tokenise('QUIRE_DATA_DIR'), ['quiredatadir', 'quir', 'data', 'dir']);
    assert.deepEqual(tokenise('HTTPServer'), ['httpserver', 'http', 'server']);
    assert.deepEqual(tokenise('config.qdrant'), ['configqdrant', 'config', 'qdrant']);
    // A dotted key also yields its segments that are identifiers themselves.
    assert.deepEqual(tokenise('relay.cacheTTL'), ['relaycachettl', 'cachettl', 'relay', 'cach', 'ttl']);
  });

  it('finds an identifier from its spaced-out words and the other way round', () => {
    const doc = new Set(tokenise('Set retrievalPageSize to 10'));
    for (const term of tokenise('retrieval page size')) assert.ok(doc.has(term), term);
    assert.ok(doc.has(tokenise('retrievalPageSize')[0]!));
  });

  it('drops stopwords, lowercases and stems plurals and verb endings alike', () => {
    assert.deepEqual(tokenise('The Tokens of an index'), ['token', 'index']);
    assert.equal(stem('configured'), stem('configure'));
    assert.equal(stem('retries'), 'retry');
    assert.equal(stem('indexes'), 'index');
    assert.equal(stem('files'), stem('file'));
    assert.equal(stem('status'), 'status');
  });

  it('handles non-Latin letters and digits', () => {
    assert.deepEqual(tokenise('Démarrage rapide v2'), ['demarrag', 'rapid', 'v2', 'v', '2']);
  });

  it('cuts Chinese, Japanese and Korean runs into overlapping pairs, so a word of a sentence without spaces meets it', () => {
    assert.deepEqual(tokenise('设置主机名'), ['设置', '置主', '主机', '机名']);
    assert.deepEqual(tokenise('主机名'), ['主机', '机名']);
    assert.deepEqual(tokenise('ホスト名'), ['ホス', 'スト', 'ト名']);
    assert.deepEqual(tokenise('이름'), ['이름']);
    assert.deepEqual(tokenise('设置API_KEY'), ['设置', 'apikey', 'api', 'key']);
    assert.deepEqual(tokenise('名'), ['名']);
  });

  it('reads text in any Unicode form as its composed, compatibility-folded form', () => {
    // Decomposed (e + U+0301, as text copied from macOS can be): one word, the same term as composed.
    assert.deepEqual(tokenise('cle\u0301 nu\u0301mero'), tokenise('clé número'));
    assert.deepEqual(tokenise('\u1100\u1175'), tokenise('기'));
    // Full-width Latin and half-width katakana, as a Japanese input method types them.
    assert.deepEqual(tokenise('ＡＰＩキー'), tokenise('APIキー'));
    assert.deepEqual(tokenise('ｷｰ'), tokenise('キー'));
    // Marks that are part of a letter in scripts without precomposed forms stay inside the word.
    assert.deepEqual(tokenise('हिन्दी दस्तावेज़'), ['हिन्दी', 'दस्तावेज़']);
  });

  it('finds a word typed without its accents, or cased another way, as written with them', () => {
    assert.deepEqual(tokenise('cle Schlussel verifier naive'), tokenise('clé Schlüssel vérifier naïve'));
    assert.deepEqual(tokenise('strasse'), tokenise('Straße'));
    assert.deepEqual(tokenise('ISTANBUL istanbul'), tokenise('İstanbul ıstanbul'));
    assert.deepEqual(tokenise('завершенные'), tokenise('завершённые'));
    // Marks that make another letter in other scripts stay: が is not か, й is not и.
    assert.notDeepEqual(tokenise('ガイド'), tokenise('カイト'));
    assert.notDeepEqual(tokenise('мой'), tokenise('мои'));
  });

  it('gives stable 32-bit term ids', () => {
    assert.equal(termId('queue'), termId('queue'));
    assert.notEqual(termId('queue'), termId('queues'));
    assert.ok(termId('queue') >= 0 && termId('queue') < 2 ** 32);
  });
});

describe('tokenise in a language with a stemmer of its own', () => {
  /** Whether every word shares one term in `language`: the stemmed terms of each, intersected, are not empty. */
  const shareATerm = (language: string | undefined, ...words: string[]) => {
    const [first, ...rest] = words.map((word) => new Set(tokenise(word, language)));
    return [...first!].some((term) => rest.every((terms) => terms.has(term)));
  };

  it('gives a word and its inflections one stem in German, French, Spanish, Portuguese, Italian and Dutch', () => {
    const families: Array<[string, string[]]> = [
      ['de', ['Einstellung', 'Einstellungen']],
      ['de', ['Benutzer', 'Benutzern', 'Benutzers']],
      ['de', ['Rechner', 'Rechnern', 'Rechners']],
      ['de', ['Sicherung', 'Sicherungen']],
      ['fr', ['configurer', 'configuration', 'configurez']],
      ['fr', ['installer', 'installation', 'installé']],
      ['fr', ['facture', 'factures', 'facturer']],
      ['es', ['instalar', 'instalación', 'instalaciones']],
      ['pt', ['configurar', 'configuração', 'configurações']],
      ['it', ['installare', 'installazione', 'installato']],
      ['nl', ['gebruiker', 'gebruikers']],
    ];
    for (const [language, words] of families) assert.ok(shareATerm(language, ...words), `${language}: ${words.join(', ')} share no term`);
  });

  it('meets a word typed without its accents', () => {
    assert.ok(shareATerm('fr', 'sécurité', 'securite'));
    assert.ok(shareATerm('es', 'instalación', 'instalacion'));
    assert.ok(shareATerm('de', 'Schlüssel', 'Schlussel'));
  });

  it('joins what the English stemmer leaves apart', () => {
    assert.ok(!shareATerm(undefined, 'configurer', 'configuration'));
    assert.ok(!shareATerm(undefined, 'Einstellungen', 'Einstellung'));
  });

  it('keeps identifiers, digits and stopwords as in English', () => {
    // The parts are German words to its stemmer (`page` loses its `e`), the identifier whole and the digits are not.
    assert.deepEqual(tokenise('retrievalPageSize v2', 'de'), ['retrievalpagesize', 'retrieval', 'pag', 'siz', 'v2', 'v', '2']);
    assert.deepEqual(tokenise('the API', 'fr'), ['api']);
  });

  it('leaves English as it was: no language, or a language without a stemmer, is English', () => {
    const text = 'Configuring the retries of indexed files: relay.cacheTTL, Démarrage rapide, 设置API_KEY';
    const english = tokenise(text);
    assert.deepEqual(tokenise(text, undefined), english);
    assert.deepEqual(english.slice(0, 4), ['configur', 'retry', 'index', 'file']);
    for (const tag of ['en', 'en-GB', 'ja', 'zh-Hant', 'tlh']) assert.equal(stemmingLanguage(tag), undefined, tag);
  });

  it('names the stemming language by the primary subtag of a BCP 47 tag', () => {
    assert.equal(stemmingLanguage('de-CH'), 'de');
    assert.equal(stemmingLanguage('pt_BR'), 'pt');
    assert.equal(stemmingLanguage('FR'), 'fr');
    assert.equal(stemmingLanguage('nb'), 'nb');
    assert.ok(STEMMED_LANGUAGES.includes('it') && STEMMED_LANGUAGES.includes('nl'));
  });

  it('stems the languages @orama/stemmers adds beyond Snowball\'s twelve, each in its own script', () => {
    // Two forms of a word meet on a term (each may also give its form without accents).
    const meet = (language: string, a: string, b: string) => assert.ok(tokenise(a, language).some((t) => tokenise(b, language).includes(t)), `${language}: ${a} / ${b}`);
    meet('tr', 'kuyrukları', 'kuyruk');
    meet('uk', 'інструментів', 'інструмент');
    meet('bg', 'инструментите', 'инструмент');
    meet('el', 'εργαλείων', 'εργαλεία');
    meet('hu', 'eszközök', 'eszköz');
    meet('ar', 'المهمة', 'مهمة');
    meet('sr', 'алата', 'alata');
    for (const tag of ['ar', 'bg', 'el', 'ga', 'hu', 'hy', 'id', 'lt', 'ne', 'sr', 'ta', 'tr', 'uk-UA']) assert.ok(stemmingLanguage(tag), tag);
  });

  it('caches per language: a word cut as German is cut again as French, not looked up', () => {
    assert.deepEqual(tokenise('installation', 'de'), ['installation']);
    assert.deepEqual(tokenise('installation', 'fr'), ['install']);
    assert.deepEqual(tokenise('installation'), ['installation']);
  });
});
