// A vitest sequencer that runs the projects one after another, in the order given, and within each project
// starts the named files first, in the order given, then the rest as vitest orders them.
//
// Projects: with `isolate: false` a worker keeps its process (the engine, React and zod already loaded) only
// while the next file in the queue belongs to the same project; a file of another project gets a new process.
// Files of the projects taken in turns cost a new process almost per file, so each project's files stay
// together, and the project with the most short files comes last, to keep both workers busy to the end.
//
// Files: two run at once, so a suite ends when the worker that drew the long files ends: a long file started
// last runs on alone after everything else. vitest orders by the previous run's durations only when it has
// them, which a fresh clone (CI) does not (it then starts the largest files first).
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * `projects`: project names, first to run first (a project not named runs after them); `names`: file names
 * without `.test.ts`, longest first (their order counts only among files of one project).
 */
export function longestFirst(names: string[], projects: string[] = []): typeof BaseSequencer {
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (list: string[], name: string) => {
        const i = list.indexOf(name);
        return i < 0 ? list.length : i;
      };
      const key = (f: TestSpecification) => [rank(projects, f.project.name), rank(names, path.basename(f.moduleId, '.test.ts'))];
      return (await super.sort(files)).sort((a, b) => {
        const [pa, fa] = key(a), [pb, fb] = key(b);
        return pa - pb || fa - fb;
      });
    }
  };
}
