// A plain HTTP client for host tests: sends the path exactly as given (fetch would normalise `//x`, `/\x`
// and `..`), never follows redirects, and returns status, headers and the body as text.
import http from 'node:http';

export interface PlainResponse { status: number; headers: http.IncomingHttpHeaders; body: string }

export function request(origin: string, rawPath: string, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<PlainResponse> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, path: rawPath, method: opts.method ?? 'GET', headers: opts.headers, agent: false, timeout: 20_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${rawPath}`)));
    req.on('error', reject);
    req.end();
  });
}

/** The Location a browser would follow stays on the same origin: one leading slash, no scheme. */
export function isSameOrigin(location: string | undefined): boolean {
  return location === undefined || (/^\/(?![/\\])/.test(location) && !/^[a-z][a-z0-9+.-]*:/i.test(location));
}
