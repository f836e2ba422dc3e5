// Which Host header names this machine's dev or preview server. A page on another site can point its own
// domain at 127.0.0.1 (DNS rebinding) and then read whatever the server answers, as same-origin; the Host
// header it sends still names its domain. So both servers, and the local backend behind them, answer only
// a Host that is a loopback name, the host they were told to listen on (--host), or, when they listen on
// every interface (0.0.0.0, ::), an IP address: an address cannot be rebound, a domain name can.

/** localhost, 127.0.0.0/8 and ::1: names and addresses that can only mean this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = bareHost(hostname).replace(/\.$/, '');
  return h === 'localhost' || h === '::1' || /^127(\.\d{1,3}){3}$/.test(h);
}

/** Lower case, without IPv6 brackets. */
const bareHost = (h: string) => h.toLowerCase().replace(/^\[(.*)\]$/, '$1');

/** The host name of a Host header ("127.0.0.1:5173" → "127.0.0.1"), or null when it is not a host. */
export function hostHeaderName(header: string | undefined): string | null {
  if (!header) return null;
  try { return bareHost(new URL(`http://${header}`).hostname); } catch { return null; }
}

/** True when `header` (a request's Host) may be answered by a server told to listen on `listenHost`. */
export function isKnownHost(header: string | undefined, listenHost: string | undefined): boolean {
  const name = hostHeaderName(header);
  if (name === null) return false;
  if (isLoopbackHost(name)) return true;
  const configured = listenHost === undefined ? '' : bareHost(listenHost);
  if (configured && name === configured) return true;
  return (configured === '0.0.0.0' || configured === '::') && isIpAddress(name);
}

/** An IPv4 address in dotted-quad form, or an IPv6 address (without brackets). No Node API: the package's
 *  public entry exports this module, and islands import that entry in the browser. */
function isIpAddress(name: string): boolean {
  const quad = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(name);
  if (quad) return quad.slice(1).every((n) => Number(n) <= 255 && (n === '0' || !n.startsWith('0')));
  if (!name.includes(':')) return false;
  try { return new URL(`http://[${name}]/`).hostname.length > 2; } catch { return false; }
}
