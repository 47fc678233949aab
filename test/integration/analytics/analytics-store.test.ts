import { createAnalyticsStore } from '../../../core/analytics/index.js';
import { forEachDialect } from '../../support/databases.js';
import { analyticsStoreContract } from './analytics-store-contract.js';

forEachDialect('analytics store', (database) => {
  analyticsStoreContract(async () => createAnalyticsStore(database()));
});
