import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Custom search attributes of Quire's workflows: the embedded dev server's flags name them, and the worker adds them to its namespace when it starts. */
export const JOB_STATUS = defineSearchAttributeKey('QuireJobStatus', SearchAttributeType.KEYWORD);
export const PROJECT_ID = defineSearchAttributeKey('QuireProjectId', SearchAttributeType.KEYWORD);
export const DOMAIN_ID = defineSearchAttributeKey('QuireDomainId', SearchAttributeType.KEYWORD);

export const SEARCH_ATTRIBUTES = [JOB_STATUS, PROJECT_ID, DOMAIN_ID];
