/**
 * What Quire knows of the words of each language it reads, by the primary subtag of a BCP 47 tag
 * (`de`, `de-CH` and `de-AT` are all German): the Snowball stemmer that cuts them (`@orama/stemmers`;
 * none for English, which keeps the tokeniser's own light stemmer) and the function words a question
 * is built of (`@orama/stopwords`), which tell a question's language (`hit-scope.ts`).
 */
import { stemmer as danishStemmer } from '@orama/stemmers/danish';
import { stemmer as dutchStemmer } from '@orama/stemmers/dutch';
import { stemmer as finnishStemmer } from '@orama/stemmers/finnish';
import { stemmer as frenchStemmer } from '@orama/stemmers/french';
import { stemmer as germanStemmer } from '@orama/stemmers/german';
import { stemmer as italianStemmer } from '@orama/stemmers/italian';
import { stemmer as norwegianStemmer } from '@orama/stemmers/norwegian';
import { stemmer as portugueseStemmer } from '@orama/stemmers/portuguese';
import { stemmer as romanianStemmer } from '@orama/stemmers/romanian';
import { stemmer as russianStemmer } from '@orama/stemmers/russian';
import { stemmer as spanishStemmer } from '@orama/stemmers/spanish';
import { stemmer as swedishStemmer } from '@orama/stemmers/swedish';
import { stopwords as danishWords } from '@orama/stopwords/danish';
import { stopwords as dutchWords } from '@orama/stopwords/dutch';
import { stopwords as englishWords } from '@orama/stopwords/english';
import { stopwords as finnishWords } from '@orama/stopwords/finnish';
import { stopwords as frenchWords } from '@orama/stopwords/french';
import { stopwords as germanWords } from '@orama/stopwords/german';
import { stopwords as italianWords } from '@orama/stopwords/italian';
import { stopwords as norwegianWords } from '@orama/stopwords/norwegian';
import { stopwords as portugueseWords } from '@orama/stopwords/portuguese';
import { stopwords as romanianWords } from '@orama/stopwords/romanian';
import { stopwords as russianWords } from '@orama/stopwords/russian';
import { stopwords as spanishWords } from '@orama/stopwords/spanish';
import { stopwords as swedishWords } from '@orama/stopwords/swedish';

export interface LanguageWords {
  /** Its Snowball stemmer, which expects a lower-case word, accents kept; undefined for English. */
  stemmer: ((word: string) => string) | undefined;
  /** Its function words, lower case. */
  functionWords: readonly string[];
}

const NORWEGIAN: LanguageWords = { stemmer: norwegianStemmer, functionWords: norwegianWords };

export const LANGUAGES: Readonly<Record<string, LanguageWords>> = {
  da: { stemmer: danishStemmer, functionWords: danishWords },
  de: { stemmer: germanStemmer, functionWords: germanWords },
  en: { stemmer: undefined, functionWords: englishWords },
  es: { stemmer: spanishStemmer, functionWords: spanishWords },
  fi: { stemmer: finnishStemmer, functionWords: finnishWords },
  fr: { stemmer: frenchStemmer, functionWords: frenchWords },
  it: { stemmer: italianStemmer, functionWords: italianWords },
  nl: { stemmer: dutchStemmer, functionWords: dutchWords },
  // Norwegian Bokmål and Nynorsk, and the macrolanguage's own tag.
  nb: NORWEGIAN,
  nn: NORWEGIAN,
  no: NORWEGIAN,
  pt: { stemmer: portugueseStemmer, functionWords: portugueseWords },
  ro: { stemmer: romanianStemmer, functionWords: romanianWords },
  ru: { stemmer: russianStemmer, functionWords: russianWords },
  sv: { stemmer: swedishStemmer, functionWords: swedishWords },
};
