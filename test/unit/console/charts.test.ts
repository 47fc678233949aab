import assert from 'node:assert/strict';
import { answeredPerDay, daysBetween, feedbackPerDay, isEmpty, questionsPerDay, topSearches, trafficByPage } from '../../../console/data/charts.js';
import type { Conversation, Feedback } from '../../../console/data/shapes.js';

const conversation = (id: string, timestamp: string, extra: Partial<Conversation> = {}): Conversation => ({
  id,
  timestamp,
  query: `question ${id}`,
  response: 'answer',
  sources: [{ title: 'Quickstart', url: 'https://docs.example.com/quickstart' }],
  queryCategory: null,
  ...extra,
});

describe('console data layer: chart series from the analytics API', () => {
  const days = daysBetween(new Date('2026-11-20T00:00:00Z'), new Date('2026-11-22T00:00:00Z'));

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

  it('splits answered from unanswered by resolutionStatus, or by cited sources when the server sends none', () => {
    const chart = answeredPerDay(
      [
        conversation('a', '2026-11-21T10:00:00Z', { resolutionStatus: 'answered' }),
        conversation('b', '2026-11-21T11:00:00Z', { resolutionStatus: 'unanswered' }),
        conversation('c', '2026-11-21T12:00:00Z', { sources: [] }),
        conversation('d', '2026-11-22T12:00:00Z'),
      ],
      days,
    );
    assert.deepEqual(chart.series, [
      { name: 'Answered', values: [0, 1, 1] },
      { name: 'Unanswered', values: [0, 2, 0] },
    ]);
  });

  it('counts thumbs up and down per day; ratings without helpful are not thumbs', () => {
    const rating = (id: string, createdAt: string | null, helpful?: boolean): Feedback => ({ id, path: '/x', comment: null, createdAt, ...(helpful === undefined ? {} : { helpful }) });
    const chart = feedbackPerDay([rating('1', '2026-11-20T01:00:00Z', true), rating('2', '2026-11-20T02:00:00Z', false), rating('3', '2026-11-22T02:00:00Z', false), rating('4', '2026-11-21T02:00:00Z'), rating('5', null, true)], days);
    assert.deepEqual(chart.series, [
      { name: 'Thumbs up', values: [1, 0, 0] },
      { name: 'Thumbs down', values: [1, 0, 1] },
    ]);
  });

  it('orders top searches by count, then by query, and keeps the first ones', () => {
    const stat = (searchQuery: string, searches: number) => ({ searchQuery, searches, hits: 1, ctr: 0, topClickedPage: null });
    const chart = topSearches([stat('b', 3), stat('a', 3), stat('c', 9), stat('d', 1)], 3);
    assert.deepEqual(chart, { labels: ['c', 'a', 'b'], series: [{ name: 'Searches', values: [9, 3, 3] }] });
  });

  it("joins Mintlify's views and visitors by page, human and AI, most viewed first", () => {
    const chart = trafficByPage(
      { totals: { human: 7, ai: 3, total: 10 }, views: [{ path: '/a', human: 1, ai: 1, total: 2 }, { path: '/b', human: 6, ai: 2, total: 8 }], hasMore: false },
      { totals: { human: 4, ai: 1, total: 5 }, visitors: [{ path: '/b', human: 3, ai: 1, total: 4 }, { path: '/c', human: 1, ai: 0, total: 1 }], hasMore: false },
    );
    assert.deepEqual(chart, {
      labels: ['/b', '/a', '/c'],
      series: [
        { name: 'Human views', values: [6, 1, 0] },
        { name: 'AI views', values: [2, 1, 0] },
        { name: 'Human visitors', values: [3, 0, 1] },
        { name: 'AI visitors', values: [1, 0, 0] },
      ],
    });
  });

  it('answers null traffic when the server has neither endpoint, and says an all-zero chart is empty', () => {
    assert.equal(trafficByPage(null, null), null);
    assert.equal(isEmpty(null), true);
    assert.equal(isEmpty(questionsPerDay([], days)), true);
    assert.equal(isEmpty(questionsPerDay([conversation('a', '2026-11-21T00:00:00Z')], days)), false);
  });
});
