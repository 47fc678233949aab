import path from 'node:path';
import { SqliteAnalyticsStore } from '../../../core/analytics/index.js';
import { tempDir } from '../../support/services.js';
import { analyticsStoreContract } from './store-contract.js';

describe('SqliteAnalyticsStore', () => {
  analyticsStoreContract(async () => new SqliteAnalyticsStore(path.join(await tempDir('quire-analytics-'), 'analytics.db')));
});
