import { Agent, EnvHttpProxyAgent, type Dispatcher } from 'undici';
import { publicOnlyLookup, type Resolver } from './private-targets.js';
import type { ProxySettings } from '../config.js';

/**
 * Outbound connections that honour HTTP_PROXY, HTTPS_PROXY and NO_PROXY, with
 * keep-alive pools. undici's agent tunnels through the proxy with CONNECT and
 * applies NO_PROXY's host, port and domain rules, which we would otherwise
 * write and test ourselves. The settings come from the parsed configuration:
 * empty strings stop undici from reading the environment on its own.
 */
export function proxyDispatcher(proxy: ProxySettings): Dispatcher {
  return new EnvHttpProxyAgent({ httpProxy: proxy.http ?? '', httpsProxy: proxy.https ?? '', noProxy: proxy.noProxy ?? '' });
}

/**
 * Outbound connections to a target an organisation names (a webhook receiver): as `proxyDispatcher`
 * when private targets are allowed or an egress proxy is configured (the proxy resolves the name,
 * and its rules decide); otherwise direct connections whose own lookup refuses a private address,
 * so a name checked as public cannot answer a private address when the connection is made.
 */
export function targetDispatcher(proxy: ProxySettings, allowPrivateTargets: boolean, resolve?: Resolver): Dispatcher {
  if (allowPrivateTargets || proxy.http || proxy.https) return proxyDispatcher(proxy);
  return new Agent({ connect: { lookup: publicOnlyLookup(resolve) } });
}
