// The HTTP edge of the local waitlist backend: what the Supabase API gateway
// does before PostgREST sees a request (Host check, API key check, CORS, body
// size cap) plus reading a JSON body and writing JSON responses.
// In: Node's IncomingMessage / ServerResponse. Out: parsed values or ApiError.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { LOCAL_ANON_KEY, type WaitlistRole } from './keys.ts';
import { ApiError, restError } from './postgrest.ts';
import { isKnownHost, isLoopbackHost } from 'sitegen-islands';

export { isLoopbackHost };

const JSON_TYPE = 'application/json; charset=utf-8';

// The gateway's own wording, which the site's form matches on ("API key").
export const invalidApiKey = () => new ApiError(401, {
  message: 'Invalid API key',
  hint: 'Double check your Supabase `anon` or `service_role` API key.',
});

/** The peer address as the socket saw it (never a header): loopback, possibly IPv4-mapped IPv6. */
export function isLoopbackPeer(req: IncomingMessage): boolean {
  const address = (req.socket.remoteAddress ?? '').replace(/^::ffff:/i, '');
  return isLoopbackHost(address);
}

/**
 * Refuses a request whose Host header names neither this machine nor the host the server was told to
 * listen on: that is DNS rebinding (a web page's own domain pointed at 127.0.0.1) or a request meant for
 * another server. 421 Misdirected Request, before any key is looked at.
 */
export function requireKnownHost(req: IncomingMessage, configuredHost: string | undefined): void {
  if (isKnownHost(req.headers.host, configuredHost)) return;
  const configured = configuredHost?.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  throw new ApiError(421, {
    message: `The local waitlist API answers only requests for localhost, 127.0.0.1, [::1]${configured ? ` or ${configured}` : ''}`,
    hint: 'Open the site at the address `sitegen dev` / `sitegen preview` printed.',
  });
}

/**
 * The role the request runs as. supabase-js sends the key twice (apikey and
 * Authorization: Bearer); every key given must be one of ours, and the
 * bearer token wins, as on Supabase where it carries the user's role.
 * The service-role key is honoured only from a loopback peer: on a LAN
 * (`--host 0.0.0.0`) it must not read rows even if it leaked.
 */
export function roleFromRequest(req: IncomingMessage, serviceKey: string): WaitlistRole {
  const roleForKey = (key: string | undefined): WaitlistRole | null =>
    key === LOCAL_ANON_KEY ? 'anon' : key !== undefined && key === serviceKey ? 'service_role' : null;
  const apikey = req.headers.apikey;
  const authorization = req.headers.authorization;
  const bearer = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  if (authorization !== undefined && bearer === undefined) throw invalidApiKey();
  const apikeyRole = apikey === undefined ? undefined : roleForKey(Array.isArray(apikey) ? undefined : apikey);
  const bearerRole = bearer === undefined ? undefined : roleForKey(bearer);
  if (apikeyRole === null || bearerRole === null) throw invalidApiKey();
  const role = bearerRole ?? apikeyRole;
  if (role === undefined) throw invalidApiKey();
  if ((apikeyRole === 'service_role' || bearerRole === 'service_role') && !isLoopbackPeer(req)) {
    throw new ApiError(403, {
      message: 'The local service-role key is accepted only from this machine',
      hint: 'Run `sitegen waitlist export` on the machine that runs the server.',
    });
  }
  return role;
}

/**
 * The site calls the API from its own origin, where no CORS header is needed. The only origin answered is
 * that one (http://<the Host it was asked for>): any other page the developer visits gets no
 * Access-Control-Allow-Origin, so its script cannot read a response.
 */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const requested = req.headers['access-control-request-headers'];
  const allowHeaders = typeof requested === 'string' && /^[\w\-, ]{1,1000}$/.test(requested)
    ? requested
    : 'apikey, authorization, content-type, prefer, accept, accept-profile, content-profile, range, x-client-info';
  const headers: Record<string, string> = { Vary: 'Origin, Access-Control-Request-Headers' };
  const origin = req.headers.origin;
  if (origin !== undefined && req.headers.host && origin === `http://${req.headers.host}`) {
    Object.assign(headers, {
      'Access-Control-Allow-Origin': origin,
      'Access-Control-Allow-Methods': 'GET, HEAD, POST, OPTIONS',
      'Access-Control-Allow-Headers': allowHeaders,
      'Access-Control-Expose-Headers': 'Content-Range, Content-Location',
      'Access-Control-Max-Age': '600',
    });
  }
  return headers;
}

export function sendJson(req: IncomingMessage, res: ServerResponse, status: number, json: string | null, headers: Record<string, string> = {}): void {
  const all: Record<string, string> = { ...corsHeaders(req), ...headers };
  if (json !== null) {
    all['Content-Type'] = JSON_TYPE;
    all['Content-Length'] = String(Buffer.byteLength(json));
  }
  res.writeHead(status, all);
  res.end(json === null || req.method === 'HEAD' ? undefined : json);
}

export function sendError(req: IncomingMessage, res: ServerResponse, error: ApiError): void {
  sendJson(req, res, error.status, JSON.stringify(error.body), error.headers);
}

/** PostgREST reads JSON only; refusing other types also keeps cross-site form posts out. */
export function requireJsonBody(req: IncomingMessage): void {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') {
    throw restError(415, 'PGRST107', `The request's Content-Type '${type.slice(0, 100) || '(none)'}' is not supported`, null,
      'Send the body as application/json');
  }
}

const tooLarge = (maxBytes: number) => new ApiError(413, {
  message: 'Request size limit exceeded',
  hint: `The request body must be at most ${maxBytes} bytes.`,
}, { Connection: 'close' });

/**
 * Reads the whole body, refusing it as soon as it passes maxBytes. On
 * refusal the rest is drained, not stored (the 413 goes once it is, or
 * after 1 MB or 1 s more), and it carries Connection: close, so an
 * oversized upload costs neither memory nor a half-read socket.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The 413 waits until the client has finished sending (up to 1 MB or 1 s more): answered and closed
    // mid-upload, the client gets a reset and its kernel drops the unread 413 (seen under Node 24).
    const refuse = () => {
      const done = () => { clearTimeout(cap); reject(tooLarge(maxBytes)); };
      const cap = setTimeout(done, 1000);
      let drained = 0;
      req.on('data', (c: Buffer) => { drained += c.length; if (drained > 1 << 20) done(); });
      req.once('end', done);
      req.resume();
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      refuse();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.off('end', onEnd);
        chunks.length = 0;
        refuse();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(Buffer.concat(chunks));
    // A client that hangs up mid-body is not a server fault: refuse quietly
    // (there is no one left to answer) rather than log it as a bug.
    const onGone = () => reject(new ApiError(400, { message: 'The request body ended early' }));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onGone);
    req.on('close', onGone);
  });
}

/** The parsed body, or PostgREST's error for anything that is not JSON. */
export function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw restError(400, 'PGRST102', 'Empty or invalid json');
  }
}
