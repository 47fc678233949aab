import type { AnswerRecord } from '../../../core/analytics/index.js';

/** A recorded answer of domain `docs`, with whatever a test changes. */
export function answer(id: string, at: number, over: Partial<AnswerRecord> = {}): AnswerRecord {
  return {
    id,
    orgId: 'acme',
    domainId: 'docs',
    threadId: 't1',
    at,
    question: `question ${id}`,
    answer: `answer ${id} [1]`,
    sources: [{ title: 'Install', url: 'https://docs.example.com/guides/install', path: '/guides/install' }],
    mode: 'model',
    surface: 'assistant',
    caller: 'server',
    fp: 'fp1',
    currentPath: '/guides/install',
    resolution: 'answered',
    unansweredReason: null,
    category: 'guides',
    ...over,
  };
}
