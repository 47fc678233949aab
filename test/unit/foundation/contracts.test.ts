/**
 * The contracts layer: each contract names a workflow the worker registers, with the signature
 * the workflow has, and what callers import to use it loads no workflow or activity code.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  AGENT_JOB_WORKFLOW,
  AUTOMATION_RUN_WORKFLOW,
  DOMAIN_POLL_WORKFLOW,
  INDEX_DOMAIN_WORKFLOW,
  PING_WORKFLOW,
  RECONCILE_JOBS_WORKFLOW,
  WEBHOOK_DELIVERY_WORKFLOW,
  type AgentJobWorkflow,
  type AutomationRunWorkflow,
  type DomainPollWorkflow,
  type IndexDomainWorkflow,
  type PingWorkflow,
  type ReconcileJobsWorkflow,
  type WebhookDeliveryWorkflow,
} from '../../../core/contracts/index.js';
import * as workflows from '../../../workflows/index.js';
import { REPO_ROOT } from '../../support/temporal.js';

// Compile-time: the registered functions have the contracts' signatures.
const signatures: [AgentJobWorkflow, IndexDomainWorkflow, PingWorkflow, AutomationRunWorkflow, WebhookDeliveryWorkflow, DomainPollWorkflow, ReconcileJobsWorkflow] = [
  workflows.agentJobWorkflow,
  workflows.indexDomainWorkflow,
  workflows.pingWorkflow,
  workflows.automationRunWorkflow,
  workflows.webhookDeliveryWorkflow,
  workflows.domainPollWorkflow,
  workflows.reconcileJobsWorkflow,
];

describe('workflow contracts', function () {
  this.timeout(60_000);

  it('name the workflows the worker registers', () => {
    assert.equal(signatures.length, 7);
    const registered = Object.keys(workflows).sort();
    assert.deepEqual([AGENT_JOB_WORKFLOW, INDEX_DOMAIN_WORKFLOW, PING_WORKFLOW, AUTOMATION_RUN_WORKFLOW, WEBHOOK_DELIVERY_WORKFLOW, DOMAIN_POLL_WORKFLOW, RECONCILE_JOBS_WORKFLOW].sort(), registered);
  });

  it('let the API, the CLI and core load without workflow or activity code', async () => {
    const probe = `
      for (const m of ['./api/app.ts', './api/agent/index.ts', './infra/cli/main.ts', './core/retrieval/index.ts', './core/contracts/index.ts']) require(m);
      const loaded = Object.keys(require.cache);
      const of = (part) => loaded.filter((f) => f.includes(part)).map((f) => f.slice(f.indexOf(part)));
      console.log(JSON.stringify({ workflowPackage: of('@temporalio/workflow/'), workflows: of('/workflows/'), activities: of('/activities/') }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--require', 'tsx/cjs', '-e', probe], { cwd: REPO_ROOT });
    assert.deepEqual(JSON.parse(stdout), { workflowPackage: [], workflows: [], activities: [] });
  });
});
