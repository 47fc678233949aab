import path from 'node:path';

/** One answer question set and the corpus it is asked of. */
export interface AnswerSet {
  name: string;
  docs: string;
  questions: string;
  /** The site's language, as a domain's; absent: English. */
  language?: string | undefined;
}

const CORPORA = path.join(__dirname, 'corpora');
const QUESTIONS = path.join(__dirname, 'questions');

/** The sets `npm run eval:answers` runs, and whose recorded figures the CI test guards. */
export const DEFAULT_ANSWER_SETS: AnswerSet[] = [
  { name: 'orrery-answers', docs: path.join(CORPORA, 'orrery'), questions: path.join(QUESTIONS, 'orrery-answers.json') },
  { name: 'speicherwerk-answers', docs: path.join(CORPORA, 'speicherwerk'), questions: path.join(QUESTIONS, 'speicherwerk-answers.json'), language: 'de' },
  { name: 'facturo-answers', docs: path.join(CORPORA, 'facturo'), questions: path.join(QUESTIONS, 'facturo-answers.json'), language: 'fr' },
  // Eight languages under navigation.languages and none the site's own: indexed as a domain of no language,
  // as such a site is configured. Each page keeps its navigation language, which scopes an answer to the
  // question's language; words are cut one way for pages and questions alike.
  { name: 'tessera-answers', docs: path.join(CORPORA, 'tessera'), questions: path.join(QUESTIONS, 'tessera-answers.json') },
];
