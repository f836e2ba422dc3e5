// The `sitegen` command: parses arguments and prints what the engine returns.
// Exit codes: 0 ok, 1 a problem the user can fix (content, config, links), 2 a bug in sitegen.
// A plain `sitegen build` (its own options only, each written out) runs at once (cli/buildArgs.ts): commander
// and every other command's definition load for anything else (cli/program.ts), ~10 ms of every build's start.
import { red } from './report.ts';
import { buildCommand, plainBuildFlags } from './buildArgs.ts';
import { startedByCli } from '../src/core/heap.ts';

startedByCli(); // (bin/sitegen.js set a build's V8 flags: src/core/heap.ts may change them for a patch)

// A reader that goes away (`sitegen build | head`) ends only the output, not the command: the build still
// finishes and swaps dist/ in, and the exit code is the command's own.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    stream.write = (() => true) as typeof stream.write;
  });
}

async function run(argv: string[]): Promise<void> {
  const build = plainBuildFlags(argv.slice(2));
  if (build) {
    process.exitCode = await buildCommand(build);
    return;
  }
  const { runProgram } = await import('./program.ts');
  await runProgram(argv);
}

run(process.argv).catch((e) => {
  process.stderr.write(red(`sitegen crashed (a bug in sitegen, please report it):\n${e?.stack ?? e}\n`));
  process.exit(2);
});
