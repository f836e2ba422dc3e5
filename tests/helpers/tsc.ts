// `tsc -p <tsconfig> --noEmit` in this process: the errors it would print, in its format, '' when there are
// none. The declaration files (TypeScript's lib, @types, packages) are parsed once per process and shared by
// every program made here, as TypeScript's language service shares them, so the test files that type-check
// a project each pay for their own files only, not for a tsc process that parses everything again.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const declarations = new Map<string, ts.SourceFile>();

export function tscErrors(tsconfig: string): string {
  const configFile = path.resolve(tsconfig);
  const host = ts.createCompilerHost({});
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
    ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.formatDiagnostics([d], host)); },
  })!;
  const options = { ...parsed.options, noEmit: true };
  const programHost = ts.createCompilerHost(options);
  const parse = programHost.getSourceFile.bind(programHost);
  const shape = JSON.stringify([options.target, options.module, options.moduleResolution, options.moduleDetection, options.jsx, options.strict, options.alwaysStrict, options.isolatedModules]);
  programHost.getSourceFile = (fileName, language, onError, shouldCreate) => {
    if (!fileName.endsWith('.d.ts')) return parse(fileName, language, onError, shouldCreate);
    const stat = fs.statSync(fileName);
    const key = `${fileName}\0${stat.size},${stat.mtimeMs}\0${typeof language === 'object' ? `${language.languageVersion},${language.impliedNodeFormat}` : language}\0${shape}`;
    let file = declarations.get(key);
    if (!file) {
      file = parse(fileName, language, onError, shouldCreate);
      if (file) declarations.set(key, file);
    }
    return file;
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options, host: programHost, projectReferences: parsed.projectReferences, configFileParsingDiagnostics: parsed.errors });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  return ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => path.dirname(configFile), getNewLine: () => '\n' });
}
