// Turns what goes wrong while compiling or loading the site module into located user messages.
import path from 'node:path';
import type * as esbuild from 'esbuild';
import type { Message } from '../core/types.ts';
import { message, thrownBySite } from '../core/errors.ts';
import { ConfigInvalid, configMessages } from './configSchema.ts';

/**
 * esbuild's errors as located messages. Compiling the site module (`ConfigError`), an error in a file
 * other than sitegen.config.ts is the template's (or other module's) own: a TemplateSyntaxError there.
 */
export function esbuildMessages(list: esbuild.Message[], root: string, id: 'BundleError' | 'ConfigError' = 'BundleError', workingDir = process.cwd()): Message[] {
  return list.map((m) => {
    const location = m.location ? {
      // esbuild names files relative to its working directory (absWorkingDir: the site for client bundles,
      // else this process's), not the site root.
      file: path.relative(root, path.resolve(workingDir, m.location.file)).split(path.sep).join('/'),
      line: m.location.line, column: m.location.column + 1, lineText: m.location.lineText,
    } : null;
    const inModule = id === 'ConfigError' && location && location.file !== 'sitegen.config.ts' && !location.file.startsWith('../') && !location.file.includes('node_modules/');
    return message(inModule ? 'TemplateSyntaxError' : id, m.text, location);
  });
}

/** The module compiled but threw while its top level ran (the config or a template module): a user error. */
export const loadFailed = (e: unknown, root: string): Message[] => e instanceof ConfigInvalid ? configMessages(e, root) : [thrownBySite(e, root, 'loading sitegen.config.ts failed')];

export const noConfig = (root: string) => [message('ConfigError', `No sitegen.config.ts in ${root}`, null, { hint: 'Run sitegen in a site folder or pass --root.' })];
