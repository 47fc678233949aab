import * as v from 'valibot';
import { canonicalLanguage } from '../retrieval/filter.js';
import { STEMMED_LANGUAGES } from '../retrieval/stemmers.js';

/** The primary subtags a domain's `language` may have: English and every language the tokeniser stems (see core/retrieval/stemmers.ts). */
export const DOMAIN_LANGUAGES: readonly string[] = ['en', ...STEMMED_LANGUAGES].sort();

/** Whether a tag is well-formed BCP 47 (`Intl` accepts it) and its primary subtag one of DOMAIN_LANGUAGES. */
function supported(tag: string): boolean {
  try {
    Intl.getCanonicalLocales(tag);
  } catch {
    return false;
  }
  return DOMAIN_LANGUAGES.includes(tag.split('-')[0]!.toLowerCase());
}

/**
 * A domain's language as the admin API and the seed file take it: a BCP 47 tag (`de`, `pt-BR`, `fr-CA`;
 * `_` read as `-`) whose language Quire stems, kept in canonical case (`PT-br` is `pt-BR`).
 */
export const domainLanguageSchema = v.pipe(
  v.string(),
  v.trim(),
  v.transform((tag) => tag.replace(/_/g, '-')),
  v.check(supported, `must be a BCP 47 language tag whose language is one of ${DOMAIN_LANGUAGES.join(', ')}`),
  v.transform(canonicalLanguage),
);
