// typecheck: `sitegen check` type-checks a site that has a tsconfig.json, with the site's own TypeScript
// (resolved from the site root, as its editor and `tsc` would), in process. The site's tsconfig.json is
// used as it is (its files, its options); each error becomes a located TypeError message in the shape of
// every other message. The program is incremental: its state is kept in the build state folder
// (.sitegen/cache/typecheck.tsbuildinfo), so a check after a small edit re-checks only what the edit
// touches; a later check in the same process (the engine run in process: a script, the test suite) also
// starts from the last one's program, of any site. Build and dev never type-check (esbuild strips types).
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import type { Message } from '../core/types.ts';
import { siteCachePath } from '../cache/registry.ts';
import { fileLocation } from '../core/errors.ts';
import { chainMessage, clip, tscCheck } from './typecheckTsc.ts';
export { besideRenderErrors } from './typecheckTsc.ts';

export type TypeCheckResult =
  | { errors: Message[]; files: number; ms: number; /** The version of the site's tsc that checked, when it ran as a process (TypeScript 7). */ tsc?: string }
  | { skipped: string };

/** The site's `typescript` package, or null when the site has none installed. */
function siteTypeScript(root: string): typeof TS | null {
  try {
    const require = createRequire(path.join(root, 'package.json'));
    return require(require.resolve('typescript')) as typeof TS;
  } catch {
    return null;
  }
}

/**
 * The files parsed and bound by the checks before, per TypeScript instance: TypeScript's lib, @types and
 * packages' types (.d.ts), and sources the site shares with others (a monorepo's shared folder, a package's
 * sources mapped by `paths`). Most of a check's time is parsing and binding them, and a second check in the
 * same process (a script or a test suite checking several sites) then parses only what it has not seen. A
 * file is reused only while its path, size, modification time and inode are the same, and only under the same
 * options that shape a parsed file (as TypeScript's language service shares them between programs).
 */
const parsedFiles = new WeakMap<typeof TS, Map<string, TS.SourceFile>>();
const MAX_FILES = 2000;

function reuseParsedFiles(ts: typeof TS, host: TS.CompilerHost, options: TS.CompilerOptions): void {
  let cache = parsedFiles.get(ts);
  if (!cache) parsedFiles.set(ts, (cache = new Map()));
  const files = cache;
  const shaping = ['target', 'module', 'moduleResolution', 'moduleDetection', 'jsx', 'jsxImportSource', 'alwaysStrict', 'strict',
    'importHelpers', 'allowUnusedLabels', 'allowUnreachableCode', 'noFallthroughCasesInSwitch', 'preserveConstEnums',
    'isolatedModules', 'verbatimModuleSyntax'].map((k) => String(options[k])).join();
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) => {
    const stat = fs.statSync(fileName, { throwIfNoEntry: false });
    if (!stat) return parse(fileName, language, onError, shouldCreate);
    const shape = typeof language === 'object' ? `${language.languageVersion},${language.impliedNodeFormat}` : String(language);
    const key = `${fileName}\0${stat.size},${stat.mtimeMs},${stat.ino}\0${shape}\0${shaping}`;
    const known = files.get(key);
    if (known) return known;
    const parsed = parse(fileName, language, onError, shouldCreate);
    if (parsed) {
      if (files.size >= MAX_FILES) files.clear();
      files.set(key, parsed);
    }
    return parsed;
  };
}

/**
 * The last check's program per TypeScript instance, which the next check in the same process starts from
 * (as `tsc --watch` starts from its last program): a file that did not change, and that nothing it depends
 * on changed in, keeps the errors found for it without being checked again. That is what checks of several
 * sites share (a package's sources, a monorepo's shared folder) and, for one site checked again, everything
 * but the edit. A check without the cache starts from nothing.
 */
const lastChecks = new WeakMap<typeof TS, { buildInfo: string; program: TS.EmitAndSemanticDiagnosticsBuilderProgram }>();

/** Null when the site has no tsconfig.json (nothing to say: the site is not a TypeScript project). */
export function typeCheck(root: string, opts: { cache?: boolean } = {}): TypeCheckResult | null {
  const t0 = performance.now();
  const configFile = path.join(root, 'tsconfig.json');
  if (!fs.existsSync(configFile)) return null;
  const ts = siteTypeScript(root);
  if (!ts) {
    // (listed but not installed: the site's packages were never installed, or not since init added it)
    let listed = false;
    try { const p = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')); listed = !!(p?.devDependencies?.typescript ?? p?.dependencies?.typescript); } catch { /* none */ }
    return { skipped: listed ? 'type check skipped: the site\'s package.json lists typescript, but it is not installed (run npm install)' : 'type check skipped: the site has a tsconfig.json but no typescript package installed (npm install -D typescript)' };
  }
  if (typeof ts.createEmitAndSemanticDiagnosticsBuilderProgram !== 'function' || !ts.sys) {
    // A TypeScript without the compiler API (7: the native compiler): its own tsc, run as `tsc --noEmit` would be.
    const r = tscCheck(root, configFile, opts.cache !== false ? siteCachePath(root, 'typecheck') : null);
    if (!r) return { skipped: `type check skipped: the site's typescript ${String((ts as { version?: unknown }).version ?? '')} has neither a compiler API nor a tsc` };
    if (r.crashed) return { skipped: `type check skipped: ${r.crashed}` };
    return { errors: r.errors, files: 0, ms: Math.round(performance.now() - t0), tsc: String((ts as { version?: unknown }).version ?? '') };
  }

  const rel = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const where = (d: TS.Diagnostic) => {
    if (!d.file) return null;
    if (d.start === undefined) return fileLocation(rel(d.file.fileName));
    const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
    const starts = d.file.getLineStarts();
    const lineText = d.file.text.slice(starts[line], line + 1 < starts.length ? starts[line + 1] : undefined).replace(/\r?\n$/, '');
    return fileLocation(rel(d.file.fileName), line + 1, character + 1, lineText);
  };
  // TypeScript's chain of explanation (chainMessage), and where the names involved are declared.
  const located = (d: TS.Diagnostic): Message => {
    const chain = ts.flattenDiagnosticMessageText(d.messageText, '\n').split('\n').map((l) => l.trim()).filter(Boolean);
    const m = chainMessage(chain, `TS${d.code}`, where(d));
    for (const r of d.relatedInformation ?? []) m.notes.push({ text: clip(ts.flattenDiagnosticMessageText(r.messageText, ' ')), location: where(r) });
    return m;
  };

  const read = ts.readConfigFile(configFile, ts.sys.readFile);
  if (read.error) return { errors: [located(read.error)], files: 0, ms: Math.round(performance.now() - t0) };
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configFile);
  // "No inputs were found" (TS18003) and other config problems come back here, located in tsconfig.json.
  if (parsed.errors.length) {
    const errors = parsed.errors.filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length) return { errors: errors.map(located), files: 0, ms: Math.round(performance.now() - t0) };
  }
  const buildInfo = siteCachePath(root, 'typecheck');
  const incremental = opts.cache !== false;
  const options: TS.CompilerOptions = {
    ...parsed.options, noEmit: true, declaration: false, composite: false,
    incremental, ...(incremental ? { tsBuildInfoFile: buildInfo } : { tsBuildInfoFile: undefined }),
  };
  const host = ts.createIncrementalCompilerHost(options);
  reuseParsedFiles(ts, host, options);
  // This site's own state on disk when the last check was of another site; else the last check's.
  const last = incremental ? lastChecks.get(ts) : undefined;
  const old = last?.buildInfo === buildInfo ? last.program : (incremental && ts.readBuilderProgram(options, host)) || last?.program;
  const program = ts.createEmitAndSemanticDiagnosticsBuilderProgram(parsed.fileNames, options, host, old, ts.getConfigFileParsingDiagnostics(parsed), parsed.projectReferences);
  if (incremental) lastChecks.set(ts, { buildInfo, program });
  const diagnostics = [
    ...program.getConfigFileParsingDiagnostics(), ...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics(),
  ].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (incremental) {
    // Writes only the build info (noEmit): the state the next check starts from.
    fs.mkdirSync(path.dirname(buildInfo), { recursive: true });
    program.emit();
  }
  return { errors: diagnostics.map(located), files: parsed.fileNames.length, ms: Math.round(performance.now() - t0) };
}
