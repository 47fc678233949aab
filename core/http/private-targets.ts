import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where Quire may send what an organisation's admin points it at (a webhook receiver, a git host):
 * not to this machine or its private network (the metadata service, Redis, PostgreSQL, Temporal,
 * the metrics ports), unless the operator allows private targets (QUIRE_ALLOW_PRIVATE_TARGETS).
 * A name is resolved and every address it gives is checked, and the connection then goes to the
 * addresses checked, never to a second answer a rebinding DNS could give: webhook deliveries check
 * each connection's own lookup (`publicOnlyLookup`), git is pinned to the checked addresses
 * (`CheckedTarget.pin`). Through an egress proxy the proxy resolves, and its rules are the last line.
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

/** How names are resolved: the system's resolver, or a test's. */
export type Resolver = (hostname: string, options: { all: true; verbatim: true }, callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

function resolveAll(resolve: Resolver, host: string): Promise<LookupAddress[]> {
  return new Promise((done) => resolve(host, { all: true, verbatim: true }, (err, addresses) => done(err ? [] : addresses)));
}

const REFUSAL = 'reaches a private address (this machine or its network): Quire sends nothing there unless the operator sets QUIRE_ALLOW_PRIVATE_TARGETS=true';

/** A target checked once: why it is refused, or how to reach exactly the addresses that were checked. */
export interface CheckedTarget {
  problem?: string;
  /**
   * For an http(s) URL that names a host: its addresses as curl's `HOST:PORT:ADDRESS[,ADDRESS]`
   * (git's `http.curloptResolve`), so git connects to what was checked and resolves nothing itself.
   */
  pin?: string;
}

/**
 * Checks `target` once: refused when its host is, or resolves to, a private address; else, for an
 * http(s) URL naming a host, the addresses it resolved to, for git to use. A name that does not
 * resolve is left to the request itself (it fails then).
 */
export async function checkTarget(target: string, resolve: Resolver = systemResolver): Promise<CheckedTarget> {
  const host = hostOf(target);
  if (host === undefined) return {};
  if (host.toLowerCase() === 'localhost' || host.toLowerCase().endsWith('.localhost')) return { problem: REFUSAL };
  if (isIP(host)) return isPrivateAddress(host) ? { problem: REFUSAL } : {};
  const addresses = await resolveAll(resolve, host);
  if (addresses.some((a) => isPrivateAddress(a.address))) return { problem: REFUSAL };
  const url = URL.canParse(target) ? new URL(target) : undefined;
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || addresses.length === 0) return {};
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const listed = addresses.map((a) => (a.family === 6 ? `[${a.address}]` : a.address)).join(',');
  return { pin: `${host}:${port}:${listed}` };
}

/** Why `target` may not be reached, or undefined when it may (see `checkTarget`). */
export async function privateTargetProblem(target: string): Promise<string | undefined> {
  return (await checkTarget(target)).problem;
}

/** A connection refused by `publicOnlyLookup`: its name resolved to a private address when connecting. */
export class PrivateTargetError extends Error {
  override name = 'PrivateTargetError';
  readonly code = 'EPRIVATETARGET';
  /** What is wrong with the target, without its name (the sentence `checkTarget` gives). */
  readonly reason = REFUSAL;
  constructor(hostname: string) {
    super(`${hostname} ${REFUSAL}`);
  }
}

/**
 * A `lookup` for `net.connect` that answers only public addresses: a name that resolves to a
 * private one fails the connection. The check is the connection's own lookup, so a name that
 * answered a public address when it was checked earlier cannot lead this connection elsewhere.
 */
export function publicOnlyLookup(resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { all: true, verbatim: true }, (err, found) => {
      if (err) return callback(err, '', 0);
      const family = options.family === 4 || options.family === 6 ? options.family : undefined;
      const addresses = family ? found.filter((a) => a.family === family) : found;
      if (addresses.length === 0) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
      if (addresses.some((a) => isPrivateAddress(a.address))) return callback(new PrivateTargetError(hostname), '', 0);
      if (options.all) return (callback as unknown as (err: null, addresses: LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
