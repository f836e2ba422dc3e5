// The site's `.env` (cli/env.ts) is read by every command that runs the site's code, so `check` sees the
// settings `build` sees: a config that needs a variable set only in `.env` passes both, and fails both, in
// the same words, when the file is gone. Through the real CLI: the fixture API reads `.env` itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { sitegen } from '../helpers/cli.ts';
import { copyOf, type TestSite } from '../helpers/site.ts';
import { SCRATCH } from '../helpers/scratch.ts';

const NAME = 'SG_TEST_DOTENV_PROBE';
let site: TestSite;

beforeAll(async () => {
  site = await copyOf('basic', {}, { under: SCRATCH });
  site.edit('sitegen.config.ts', (t) => t.replace("export default defineConfig({", `if (process.env.${NAME} !== 'from-dotenv') throw new Error('${NAME} is not set to from-dotenv');\nexport default defineConfig({`));
  site.write('.env', `${NAME}=from-dotenv\n`);
});
afterAll(() => site?.remove());

describe("the site's .env", () => {
  it('is read by check as by build; without it both fail with the same message', () => {
    const env = { [NAME]: undefined };
    const check = sitegen(['check', '--root', site.root, '--no-typecheck'], { env });
    expect(check.stderr).not.toContain(NAME);
    expect(check.code).toBe(0);
    const build = sitegen(['build', '--root', site.root, '--quiet'], { env });
    expect(build.stderr).toBe('');
    expect(build.code).toBe(0);

    fs.rmSync(path.join(site.root, '.env'));
    const checkWithout = sitegen(['check', '--root', site.root, '--no-typecheck'], { env });
    const buildWithout = sitegen(['build', '--root', site.root, '--quiet'], { env });
    expect(checkWithout.code).toBe(1);
    expect(buildWithout.code).toBe(1);
    const said = (s: string) => s.split('\n').find((l) => l.includes(`${NAME} is not set`));
    expect(said(checkWithout.stderr)).toBeTruthy();
    expect(said(checkWithout.stderr)).toBe(said(buildWithout.stderr));
  });
});
