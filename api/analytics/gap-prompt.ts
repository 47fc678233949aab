import type { CoverageGap } from '../../core/analytics/index.js';
import type { Domain } from '../../core/tenants/index.js';

/** The agent's instructions for filling a coverage gap: the readers' questions, the nearest pages, the suggestion. */
export function gapPrompt(gap: CoverageGap, domain: Pick<Domain, 'id' | 'baseUrl'>): string {
  const questions = gap.questions.map((q) => `- ${q.replace(/\s+/g, ' ').trim()}`).join('\n');
  const pages = gap.pages.length > 0 ? gap.pages.map((p) => `- ${p.title} (${p.path})`).join('\n') : '- none: no page came close';
  return [
    // The first line is the job's summary in listings and the Temporal UI: it names the gap.
    `Fill coverage gap ${gap.id} of ${domain.id}: ${gap.count} reader question${gap.count === 1 ? '' : 's'} about ${gap.topic.join(', ') || 'one topic'} went unanswered.`,
    '',
    `Readers of the documentation at ${domain.baseUrl} asked questions its assistant could not answer well.`,
    '',
    'Their questions:',
    questions,
    '',
    'The pages that came closest:',
    pages,
    '',
    `Suggested change: ${gap.suggestion}`,
    '',
    'Change the documentation so these questions are answered: extend the closest page when it is the right home, else add a page and list it in the navigation. Keep to the site\'s style and state only what the repository (code, configuration, existing pages) supports; where it does not, say so in the pull request description rather than invent facts.',
  ].join('\n');
}
