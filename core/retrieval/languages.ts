/**
 * What Quire knows of the words of each language it reads, by the primary subtag of a BCP 47 tag
 * (`de`, `de-CH` and `de-AT` are all German): the stemmer that cuts them (`@orama/stemmers`, most of
 * them Snowball's; none for English, which keeps the tokeniser's own light stemmer) and the function
 * words a question is built of (`@orama/stopwords`), which tell a question's language (`hit-scope.ts`).
 */
import { stemmer as arabicStemmer } from '@orama/stemmers/arabic';
import { stemmer as bulgarianStemmer } from '@orama/stemmers/bulgarian';
import { stemmer as greekStemmer } from '@orama/stemmers/greek';
import { stemmer as irishStemmer } from '@orama/stemmers/irish';
import { stemmer as hungarianStemmer } from '@orama/stemmers/hungarian';
import { stemmer as armenianStemmer } from '@orama/stemmers/armenian';
import { stemmer as indonesianStemmer } from '@orama/stemmers/indonesian';
import { stemmer as lithuanianStemmer } from '@orama/stemmers/lithuanian';
import { stemmer as nepaliStemmer } from '@orama/stemmers/nepali';
import { stemmer as serbianStemmer } from '@orama/stemmers/serbian';
import { stemmer as tamilStemmer } from '@orama/stemmers/tamil';
import { stemmer as turkishStemmer } from '@orama/stemmers/turkish';
import { stemmer as ukrainianStemmer } from '@orama/stemmers/ukrainian';
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
import { stopwords as arabicWords } from '@orama/stopwords/arabic';
import { stopwords as bulgarianWords } from '@orama/stopwords/bulgarian';
import { stopwords as greekWords } from '@orama/stopwords/greek';
import { stopwords as irishWords } from '@orama/stopwords/irish';
import { stopwords as hungarianWords } from '@orama/stopwords/hungarian';
import { stopwords as armenianWords } from '@orama/stopwords/armenian';
import { stopwords as indonesianWords } from '@orama/stopwords/indonesian';
import { stopwords as lithuanianWords } from '@orama/stopwords/lithuanian';
import { stopwords as nepaliWords } from '@orama/stopwords/nepali';
import { stopwords as serbianWords } from '@orama/stopwords/serbian';
import { stopwords as tamilWords } from '@orama/stopwords/tamil';
import { stopwords as turkishWords } from '@orama/stopwords/turkish';
import { stopwords as ukrainianWords } from '@orama/stopwords/ukrainian';
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
  ar: { stemmer: arabicStemmer, functionWords: arabicWords },
  bg: { stemmer: bulgarianStemmer, functionWords: bulgarianWords },
  da: { stemmer: danishStemmer, functionWords: danishWords },
  de: { stemmer: germanStemmer, functionWords: germanWords },
  el: { stemmer: greekStemmer, functionWords: greekWords },
  en: { stemmer: undefined, functionWords: englishWords },
  es: { stemmer: spanishStemmer, functionWords: spanishWords },
  fi: { stemmer: finnishStemmer, functionWords: finnishWords },
  fr: { stemmer: frenchStemmer, functionWords: frenchWords },
  ga: { stemmer: irishStemmer, functionWords: irishWords },
  hu: { stemmer: hungarianStemmer, functionWords: hungarianWords },
  hy: { stemmer: armenianStemmer, functionWords: armenianWords },
  id: { stemmer: indonesianStemmer, functionWords: indonesianWords },
  it: { stemmer: italianStemmer, functionWords: italianWords },
  lt: { stemmer: lithuanianStemmer, functionWords: lithuanianWords },
  // Norwegian Bokmål and Nynorsk, and the macrolanguage's own tag.
  nb: NORWEGIAN,
  ne: { stemmer: nepaliStemmer, functionWords: nepaliWords },
  nl: { stemmer: dutchStemmer, functionWords: dutchWords },
  nn: NORWEGIAN,
  no: NORWEGIAN,
  pt: { stemmer: portugueseStemmer, functionWords: portugueseWords },
  ro: { stemmer: romanianStemmer, functionWords: romanianWords },
  ru: { stemmer: russianStemmer, functionWords: russianWords },
  sr: { stemmer: serbianStemmer, functionWords: serbianWords },
  sv: { stemmer: swedishStemmer, functionWords: swedishWords },
  ta: { stemmer: tamilStemmer, functionWords: tamilWords },
  tr: { stemmer: turkishStemmer, functionWords: turkishWords },
  uk: { stemmer: ukrainianStemmer, functionWords: ukrainianWords },
};
