// The host rules a site ships in its output: `_headers` (headers by path pattern) and `_redirects`
// (301s), in the Netlify/Cloudflare syntax hostfiles.ts parses. Read from the file source and parsed
// again only when a file's validator changes, so a rebuild (or a dev rebuild) takes effect at once.
import { parseHeadersFile } from '../../output/hostfiles.ts';
import { parseRedirectsFile, type Redirect } from '../../output/redirectRules.ts';
import type { FileSource } from './source.ts';

export interface HostRules {
  headersFor(pathname: string): [string, string][];
  redirectFor(pathname: string): Redirect | undefined;
}

type HeaderRules = ReturnType<typeof parseHeadersFile>;

/** Returns a function giving the current rules; it checks both files' validators on each call. */
export function hostRules(source: FileSource): () => Promise<HostRules> {
  const cache = new Map<string, { etag: string; value: unknown }>();
  async function current<T>(file: string, parse: (text: string) => T): Promise<T> {
    const st = await source.stat(file);
    const etag = st ? st.etag : '';
    const hit = cache.get(file);
    if (hit && hit.etag === etag) return hit.value as T;
    const value = parse(st ? (await source.readText(file)) ?? '' : '');
    cache.set(file, { etag, value });
    return value;
  }
  return async () => {
    const [headers, redirects] = await Promise.all([
      current<HeaderRules>('_headers', parseHeadersFile),
      current<ReturnType<typeof parseRedirectsFile>>('_redirects', parseRedirectsFile),
    ]);
    return {
      headersFor(pathname) {
        const list: [string, string][] = [];
        for (const rule of headers) if (rule.pattern.test(pathname)) list.push(...rule.headers);
        return list;
      },
      redirectFor: (pathname) => redirects.get(pathname),
    };
  };
}
