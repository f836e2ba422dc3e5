// The one place a throw from the site's own code — config functions (define, notices, csp, validate,
// routes), templates at import — becomes a located message (errors.ts thrownBySite: the first stack frame
// in the site's files, else sitegen.config.ts) instead of "a bug in sitegen". Templates that throw while
// rendering are located the same way, per page, by render/page.ts.
import type { Message } from '../core/types.ts';
import { thrownBySite } from '../core/errors.ts';

export type Called<T> = { value: T; error?: undefined } | { value?: undefined; error: Message };

/** Calls `fn` (the site's code, or engine code that calls into it); a throw is the site's problem. */
export function siteCall<T>(root: string, what: string, fn: () => T): Called<T> {
  try {
    return { value: fn() };
  } catch (e) {
    return { error: thrownBySite(e, root, what) };
  }
}
