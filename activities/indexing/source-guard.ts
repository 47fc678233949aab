import { ApplicationFailure } from '@temporalio/activity';
import type { Config } from '../../core/config.js';
import type { GitOptions } from '../../core/git/index.js';
import { checkTarget } from '../../core/http/index.js';
import type { Domain } from '../../core/tenants/index.js';

/**
 * How git may reach a domain's source, the same for a checkout and a poll: where private targets
 * are refused, a private source is a permanent failure, and git follows no redirect and connects
 * only to the addresses checked (a rebinding DNS cannot answer otherwise in between).
 */
export async function sourceGuard(config: Pick<Config, 'allowPrivateTargets'>, domain: Pick<Domain, 'id' | 'source'>): Promise<Pick<GitOptions, 'followRedirects' | 'pin'>> {
  if (config.allowPrivateTargets) return {};
  const target = await checkTarget(domain.source);
  if (target.problem) throw ApplicationFailure.nonRetryable(`the docs source of '${domain.id}' ${target.problem}`, 'PrivateTargetRefused');
  return { followRedirects: false, ...(target.pin ? { pin: target.pin } : {}) };
}
