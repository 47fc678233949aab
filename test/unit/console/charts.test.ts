import assert from 'node:assert/strict';
import { answeredPerDay, answersByDay, axisLabels, daysBetween, feedbackPerDay, isEmpty, questionsPerDay, topSearches, traffic } from '../../../console/data/charts.js';
import { periodInQuery, periodProblem, periodQuery, withPeriod } from '../../../console/data/period.js';
import type { Conversation, Feedback } from '../../../console/data/shapes.js';

const conversation = (id: string, timestamp: string, extra: Partial<Conversation> = {}): Conversation => ({
  id,
  timestamp,
  query: `question ${id}`,
  response: 'answer',
  sources: [{ title: 'Quickstart', url: 'https://docs.example.com/quickstart' }],
  resolutionStatus: 'answered',
  queryCategory: null,
  responseType: 'model',
  unansweredReason: null,
  pageUrl: null,
  threadId: null,
  surface: 'assistant',
  callerKind: 'browser',
  fp: null,
  ...extra,
});

describe('console data layer: chart series from the analytics API', () => {
  const days = daysBetween(new Date('2026-11-20T00:00:00Z'), new Date('2026-11-22T00:00:00Z'));

  it('shows days on an axis as day and month, with the year when the days run over two years; other labels as they are, cut at 40 characters', () => {
    assert.deepEqual(axisLabels(['2026-11-25', '2026-11-26']), ['25 Nov', '26 Nov']);
    assert.deepEqual(axisLabels(['2025-12-31', '2026-01-01']), ['31 Dec 2025', '1 Jan 2026']);
    assert.deepEqual(axisLabels(['/guides/install', 'x'.repeat(45)]), ['/guides/install', `${'x'.repeat(39)}…`]);
  });

  it('lists every UTC day of the period, both ends included', () => {
    assert.deepEqual(days, ['2026-11-20', '2026-11-21', '2026-11-22']);
    assert.deepEqual(daysBetween(new Date('2026-11-20T23:59:00Z'), new Date('2026-11-21T00:00:00Z')), ['2026-11-20', '2026-11-21']);
  });

  it('counts questions per day, leaving out those outside the period', () => {
    const chart = questionsPerDay(
      [conversation('a', '2026-11-20T10:00:00Z'), conversation('b', '2026-11-20T23:59:59Z'), conversation('c', '2026-11-22T00:00:00Z'), conversation('d', '2026-11-25T00:00:00Z')],
      days,
    );
    assert.deepEqual(chart, { labels: days, series: [{ name: 'Questions', values: [2, 0, 1] }] });
  });

  it('splits answered from unanswered by resolutionStatus', () => {
    const chart = answeredPerDay(
      [
        conversation('a', '2026-11-21T10:00:00Z', { resolutionStatus: 'answered' }),
        conversation('b', '2026-11-21T11:00:00Z', { resolutionStatus: 'unanswered' }),
        conversation('c', '2026-11-21T12:00:00Z', { resolutionStatus: 'unanswered' }),
        conversation('d', '2026-11-22T12:00:00Z'),
      ],
      days,
    );
    assert.deepEqual(chart.series, [
      { name: 'Answered', values: [0, 1, 1] },
      { name: 'Unanswered', values: [0, 2, 0] },
    ]);
  });

  it('counts thumbs up and down per day', () => {
    const rating = (id: string, createdAt: string | null, helpful: boolean): Feedback => ({
      id,
      path: '/x',
      comment: null,
      createdAt,
      source: 'contextual',
      status: 'pending',
      helpful,
      contact: null,
      threadId: 'thr_1',
      messageId: id,
      query: null,
    });
    const chart = feedbackPerDay([rating('1', '2026-11-20T01:00:00Z', true), rating('2', '2026-11-20T02:00:00Z', false), rating('3', '2026-11-22T02:00:00Z', false), rating('5', null, true)], days);
    assert.deepEqual(chart.series, [
      { name: 'Thumbs up', values: [1, 0, 0] },
      { name: 'Thumbs down', values: [1, 0, 1] },
    ]);
  });

  it('takes the daily counts of caller-stats when there are any, over counting the listing', () => {
    const listed = [conversation('a', '2026-11-21T10:00:00Z')];
    const stats = { days: [{ date: '2026-11-20', total: 4, answered: 3, unanswered: 1 }, { date: '2026-11-22', total: 5, answered: 5, unanswered: 0 }] };
    const fromStats = answersByDay(listed, stats, days);
    assert.deepEqual(fromStats.questions.series, [{ name: 'Questions', values: [4, 0, 5] }]);
    assert.deepEqual(fromStats.answered.series, [{ name: 'Answered', values: [3, 0, 5] }, { name: 'Unanswered', values: [1, 0, 0] }]);
    assert.deepEqual(answersByDay(listed, null, days).questions.series, [{ name: 'Questions', values: [0, 1, 0] }]);
  });

  it("orders top searches by count (Mintlify's hits), then by query", () => {
    const term = (searchQuery: string, hits: number) => ({ searchQuery, hits, ctr: 0, topClickedPage: null, lastSearchedAt: '2026-11-21T00:00:00Z', averageResults: 2 });
    assert.deepEqual(topSearches([term('b', 3), term('a', 3), term('c', 9), term('d', 1)], 3), { labels: ['c', 'a', 'b'], series: [{ name: 'Searches', values: [9, 3, 3] }] });
  });

  it("charts Mintlify's views and visitors human and AI: per day when the server sends days, else per page", () => {
    const rows = [{ path: '/a', human: 1, ai: 1, total: 2 }, { path: '/b', human: 6, ai: 2, total: 8 }];
    assert.deepEqual(traffic({ rows }, 'views', days), {
      labels: ['/b', '/a'],
      series: [{ name: 'Human views', values: [6, 1] }, { name: 'AI views', values: [2, 1] }],
    });
    assert.deepEqual(traffic({ rows, days: [{ date: '2026-11-21', human: 3, ai: 1, total: 4 }] }, 'visitors', days), {
      labels: days,
      byDay: true,
      series: [{ name: 'Human visitors', values: [0, 3, 0] }, { name: 'AI visitors', values: [0, 1, 0] }],
    });
  });

  it("sends the day after the period's last as dateTo, Mintlify's dateTo being exclusive", () => {
    assert.deepEqual(periodQuery({ dateFrom: '2026-11-01', dateTo: '2026-11-30' }), { dateFrom: '2026-11-01', dateTo: '2026-12-01' });
    assert.deepEqual(periodQuery({ dateFrom: '2026-12-01', dateTo: '2026-12-31' }), { dateFrom: '2026-12-01', dateTo: '2027-01-01' });
  });

  it('answers null traffic when the server has neither endpoint, and says an all-zero chart is empty', () => {
    assert.equal(traffic(null, 'views', days), null);
    assert.equal(isEmpty(null), true);
    assert.equal(isEmpty(questionsPerDay([], days)), true);
    assert.equal(isEmpty(questionsPerDay([conversation('a', '2026-11-21T00:00:00Z')], days)), false);
  });

  it('a period is reported only once it can be: whole dates from 2000 on, in order, at most three years; a chart draws at most ten years of days', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    assert.equal(periodProblem({ dateFrom: '2026-11-01', dateTo: '2026-11-27' }, now), undefined);
    // What a date field reports while 03152025 is typed into it: year 0002, 0020, 0201.
    for (const typing of ['0002-03-15', '0020-03-15', '0201-03-15']) assert.match(periodProblem({ dateFrom: typing, dateTo: '2026-11-27' }, now) ?? '', /^From: choose a year from 2000 to 2027/);
    assert.equal(periodProblem({ dateFrom: '', dateTo: '2026-11-27' }, now), 'From: choose a date');
    assert.equal(periodProblem({ dateFrom: '2026-11-28', dateTo: '2026-11-27' }, now), 'From must not be after To');
    assert.match(periodProblem({ dateFrom: '2020-01-01', dateTo: '2026-11-27' }, now) ?? '', /at most 1098 days/);
    assert.equal(daysBetween(new Date('0002-03-15T00:00:00Z'), new Date('2026-11-27T00:00:00Z')).length, 3660);
  });

  it('reads a period from a URL query only when it can be reported, and writes it beside the query’s other parameters', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    assert.deepEqual(periodInQuery('?from=2026-11-01&to=2026-11-20&feedback=up', now), { dateFrom: '2026-11-01', dateTo: '2026-11-20' });
    assert.equal(periodInQuery('?from=2026-11-21&to=2026-11-20', now), undefined);
    assert.equal(periodInQuery('?from=2026-11-01', now), undefined);
    assert.equal(periodInQuery('', now), undefined);
    assert.equal(withPeriod('?feedback=up&from=2020-01-01', { dateFrom: '2026-11-01', dateTo: '2026-11-20' }), '?feedback=up&from=2026-11-01&to=2026-11-20');
    assert.equal(withPeriod('', { dateFrom: '2026-11-01', dateTo: '2026-11-20' }), '?from=2026-11-01&to=2026-11-20');
  });
});
