import { EnvHttpProxyAgent, type Dispatcher } from 'undici';
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
