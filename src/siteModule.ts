// Compiles the site's sitegen.config.ts (and the templates it imports) with esbuild into one ESM module,
// then imports it. The engine's render code is bundled into the same module, so island collection and
// React share one instance. Imports of templates/islands/<Name> are wrapped with defineIsland(Name).
import path from 'node:path';
import fs from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { Message, SiteConfig } from './types.ts';
import { message } from './errors.ts';
import type { renderPage as RenderPage, renderAliasPage as RenderAlias } from './render/document.tsx';

export const ENGINE_DIR = path.dirname(fileURLToPath(import.meta.url));
export const PACKAGE_DIR = path.dirname(ENGINE_DIR);

export interface SiteModule {
  config: SiteConfig;
  renderPage: typeof RenderPage;
  renderAliasPage: typeof RenderAlias;
  /** Every source file the module was built from, relative to the root (for dev-mode invalidation). */
  inputs: string[];
}

export function esbuildMessages(list: esbuild.Message[], root: string, id: 'BundleError' | 'ConfigError' = 'BundleError'): Message[] {
  return list.map((m) => message(id, m.text, m.location ? {
    file: path.relative(root, path.resolve(root, m.location.file)).split(path.sep).join('/'),
    line: m.location.line, column: m.location.column + 1, lineText: m.location.lineText,
  } : null));
}

/** Marks bare imports external but resolves them to absolute paths, so the module runs from any folder. */
export function externalsPlugin(): esbuild.Plugin {
  return {
    name: 'sitegen-externals',
    setup(build) {
      build.onResolve({ filter: /^sitegen$/ }, () => ({ path: path.join(ENGINE_DIR, 'public.ts') }));
      build.onResolve({ filter: /^[^./]|^\.[^./]|^\.\.[^/]/ }, async (args) => {
        if (args.pluginData === 'inner' || args.path.startsWith('node:')) return undefined;
        for (const resolveDir of [args.resolveDir, PACKAGE_DIR]) {
          const r = await build.resolve(args.path, { kind: args.kind, resolveDir, pluginData: 'inner' });
          if (!r.errors.length) return { path: pathToFileURL(r.path).href, external: true };
        }
        return undefined;
      });
    },
  };
}

/** Wraps every import of a file directly inside the islands folder (from outside it) with defineIsland. */
export function islandWrapPlugin(islandsDir: string): esbuild.Plugin {
  return {
    name: 'sitegen-islands',
    setup(build) {
      build.onResolve({ filter: /islands\// }, async (args) => {
        if (args.pluginData === 'island-inner' || args.namespace === 'sitegen-island') return undefined;
        const r = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'island-inner' });
        if (r.errors.length || path.dirname(r.path) !== islandsDir || path.dirname(args.importer) === islandsDir || /\.client\.[jt]sx?$/.test(r.path)) return undefined;
        return { path: r.path, namespace: 'sitegen-island' };
      });
      build.onLoad({ filter: /.*/, namespace: 'sitegen-island' }, (args) => {
        const name = path.basename(args.path).replace(/\.[jt]sx?$/, '');
        return {
          contents: `import C from ${JSON.stringify(args.path)};\nimport { defineIsland } from ${JSON.stringify(path.join(ENGINE_DIR, 'render/island.tsx'))};\nexport default defineIsland(${JSON.stringify(name)}, C);\n`,
          loader: 'js',
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}

export async function loadSiteModule(root: string): Promise<{ site?: SiteModule; errors: Message[] }> {
  const configFile = path.join(root, 'sitegen.config.ts');
  try { await fs.access(configFile); } catch {
    return { errors: [message('ConfigError', `No sitegen.config.ts in ${root}`, null, { hint: 'Run sitegen in a site folder or pass --root.' })] };
  }
  // Outside the site and inside node_modules, so tsx's loader leaves the bundle (and its source map) alone;
  // every import in it is absolute, so where it lives does not matter.
  const outdir = path.join(PACKAGE_DIR, 'node_modules', '.cache', 'sitegen', 'server');
  const entry = [
    `export { default as config } from ${JSON.stringify(configFile)};`,
    `export { renderPage, renderAliasPage } from ${JSON.stringify(path.join(ENGINE_DIR, 'render/document.tsx'))};`,
  ].join('\n');
  let result: esbuild.BuildResult<{ metafile: true; write: false }>;
  try {
    result = await esbuild.build({
      stdin: { contents: entry, resolveDir: root, sourcefile: 'sitegen-entry.js', loader: 'js' },
      bundle: true, platform: 'node', format: 'esm', target: 'node20', jsx: 'automatic',
      write: false, metafile: true, logLevel: 'silent', outdir, entryNames: 'site-[hash]', sourcemap: 'inline',
      plugins: [islandWrapPlugin(path.join(root, 'templates', 'islands')), externalsPlugin()],
    });
  } catch (e: any) {
    return { errors: esbuildMessages(e.errors ?? [], root, 'ConfigError') };
  }
  const out = result.outputFiles[0];
  await fs.mkdir(outdir, { recursive: true });
  const file = path.join(outdir, path.basename(out.path));
  await fs.writeFile(file, out.contents);
  const mod = await import(pathToFileURL(file).href);
  const inputs = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules') && !f.startsWith('sitegen-island:'));
  return { site: { config: mod.config, renderPage: mod.renderPage, renderAliasPage: mod.renderAliasPage, inputs }, errors: [] };
}
