import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Where Quire may send what an organisation's admin points it at (a webhook receiver, a git host):
 * not to this machine or its private network (the metadata service, Redis, PostgreSQL, Temporal,
 * the metrics ports), unless the operator allows private targets (QUIRE_ALLOW_PRIVATE_TARGETS).
 * A name is resolved and every address it gives is checked; between this check and the
 * connection, DNS could still answer otherwise (a rebinding host): the operator's own network
 * policy is the last line, as README says.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is on this machine or a private, link-local or reserved network (an IPv4-mapped IPv6 address as its IPv4). */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? hexMapped(address);
  if (mapped) return PRIVATE.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return PRIVATE.check(address, 'ipv4');
  if (family === 6) return PRIVATE.check(address, 'ipv6');
  return false;
}

/** The IPv4 address of an IPv4-mapped IPv6 address written in hex (`::ffff:7f00:1`, as URLs write it). */
function hexMapped(address: string): string | undefined {
  const m = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!m) return undefined;
  const [high, low] = [parseInt(m[1]!, 16), parseInt(m[2]!, 16)];
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The host a URL or an scp-style git address (`git@host:path`) names; undefined when it names none. */
export function hostOf(target: string): string | undefined {
  if (URL.canParse(target)) {
    const host = new URL(target).hostname;
    return host.replace(/^\[|\]$/g, '') || undefined;
  }
  return /^[\w.-]+@([\w.-]+):/.exec(target)?.[1];
}

/**
 * Why `target` may not be reached, or undefined when it may: its host is, or resolves to, a
 * private address. A name that does not resolve is left to the request itself (it fails then).
 */
export async function privateTargetProblem(target: string): Promise<string | undefined> {
  const host = hostOf(target);
  if (host === undefined) return undefined;
  const refusal = `reaches a private address (this machine or its network): Quire sends nothing there unless the operator sets QUIRE_ALLOW_PRIVATE_TARGETS=true`;
  if (host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost')) return refusal;
  if (isIP(host)) return isPrivateAddress(host) ? refusal : undefined;
  const addresses = await lookup(host, { all: true, verbatim: true }).catch(() => []);
  return addresses.some((a) => isPrivateAddress(a.address)) ? refusal : undefined;
}
