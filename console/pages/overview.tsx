import * as analytics from '../api/analytics.js';
import { Show, useLoad } from '../components/async.js';
import { ChartFigure } from '../components/chart.js';
import { Page } from '../components/page.js';
import { PeriodPicker, type PeriodProps } from '../components/period.js';
import { answersByDay, daysBetween, feedbackPerDay, topSearches, traffic } from '../data/charts.js';

/** The domain's period at a glance: questions, answers, ratings, searches and traffic, as charts. */
export function OverviewPage({ domain, period, onPeriodChange }: { path?: string; domain: string } & PeriodProps) {
  const [loaded] = useLoad(async () => {
    const [stats, feedback, searches, views, visitors] = await Promise.all([
      analytics.callerStats(domain, period),
      analytics.feedback(domain, period),
      analytics.searches(domain, period),
      analytics.views(domain, period),
      analytics.visitors(domain, period),
    ]);
    const days = daysBetween(new Date(`${period.dateFrom}T00:00:00Z`), new Date(`${period.dateTo}T00:00:00Z`));
    // A server without daily counts: count the answers listed.
    const conversations = stats.days ? [] : (await analytics.conversations(domain, period)).items;
    const answers = answersByDay(conversations, stats, days);
    return {
      total: stats.total,
      questions: answers.questions,
      answered: answers.answered,
      ratings: feedbackPerDay(feedback.items, days),
      searches: topSearches(searches.searches),
      views: traffic(views, 'views', days),
      visitors: traffic(visitors, 'visitors', days),
    };
  }, [domain, period.dateFrom, period.dateTo]);

  return (
    <Page title="Overview">
      <PeriodPicker period={period} onChange={onPeriodChange} />
      <Show loaded={loaded}>
        {(report) => (
          <>
            <p class="summary" data-total-questions={report.total}>
              {report.total} question{report.total === 1 ? '' : 's'} in this period.
            </p>
            <div class="charts">
              <ChartFigure title="Questions per day" kind="line" data={report.questions} />
              <ChartFigure title="Answered and unanswered" kind="bar" stacked data={report.answered} />
              <ChartFigure title="Thumbs up and down" kind="bar" data={report.ratings} />
              <ChartFigure title="Top searches" kind="bar" horizontal data={report.searches} />
              <ChartFigure title="Page views" kind={report.views?.byDay ? 'line' : 'bar'} horizontal={!report.views?.byDay} data={report.views} />
              <ChartFigure title="Visitors" kind={report.visitors?.byDay ? 'line' : 'bar'} horizontal={!report.visitors?.byDay} data={report.visitors} />
            </div>
          </>
        )}
      </Show>
    </Page>
  );
}
