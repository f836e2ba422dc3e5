// Turns what goes wrong while compiling or loading the site module into located user messages.
import path from 'node:path';
import type * as esbuild from 'esbuild';
import type { Message } from '../types.ts';
import { message, thrownBySite } from '../errors.ts';
import { ConfigInvalid, configMessage } from '../configSchema.ts';

export function esbuildMessages(list: esbuild.Message[], root: string, id: 'BundleError' | 'ConfigError' = 'BundleError'): Message[] {
  return list.map((m) => message(id, m.text, m.location ? {
    file: path.relative(root, path.resolve(root, m.location.file)).split(path.sep).join('/'),
    line: m.location.line, column: m.location.column + 1, lineText: m.location.lineText,
  } : null));
}

/** The module compiled but threw while its top level ran (the config or a template module): a user error. */
export const loadFailed = (e: unknown, root: string) => e instanceof ConfigInvalid ? configMessage(e, root) : thrownBySite(e, root, 'loading sitegen.config.ts failed');

export const noConfig = (root: string) => [message('ConfigError', `No sitegen.config.ts in ${root}`, null, { hint: 'Run sitegen in a site folder or pass --root.' })];
