/**
 * Which hosts are loopback: the one rule both the transport (plain http:// only for loopback) and
 * the proxy settings (loopback is reached directly) follow. Its own file, below both, so http.ts
 * and proxy.ts need not import each other for it.
 */

/** True for hosts whose traffic never leaves the machine: 127.0.0.0/8, localhost, [::1]. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h === '[::1]' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/u.test(h);
}
