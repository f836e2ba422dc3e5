// A vitest sequencer that starts the named files first, in the order given, then the rest as vitest orders
// them. Two files run at once, so a suite ends when the worker that drew the long files ends: a long file
// started last runs on alone after everything else. vitest orders by the previous run's durations only when
// it has them, which a fresh clone (CI) does not (it then starts the largest files first).
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** `names` are file names without `.test.ts`, longest first. */
export function longestFirst(names: string[]): typeof BaseSequencer {
  return class LongestFirst extends BaseSequencer {
    override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
      const rank = (f: TestSpecification) => {
        const i = names.indexOf(path.basename(f.moduleId, '.test.ts'));
        return i < 0 ? names.length : i;
      };
      return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
    }
  };
}
