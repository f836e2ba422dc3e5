// Every package `npm ci` installs runs on the oldest Node our package declares (`engines.node`): otherwise npm
// prints EBADENGINE on every install and a user on that Node gets a dependency that may not work
// (sanitize-html 2.18 asked for Node >= 22.12 while we declare >= 20.19).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/cli.ts';

type Semver = { minVersion(range: string): { version: string } | null; satisfies(v: string, range: string): boolean };
const semver = createRequire(path.join(REPO, 'package.json'))('semver') as Semver;

describe('dependency engines', () => {
  it('every locked package accepts the oldest Node our package.json declares', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
    const lock = JSON.parse(fs.readFileSync(path.join(REPO, 'package-lock.json'), 'utf8'));
    const oldest = semver.minVersion(pkg.engines.node)!.version;
    const refused = Object.entries(lock.packages as Record<string, { engines?: { node?: string } | string[] }>)
      .filter(([name, p]) => name && p.engines && !Array.isArray(p.engines) && p.engines.node && !semver.satisfies(oldest, p.engines.node))
      .map(([name, p]) => `${name} wants node ${(p.engines as { node: string }).node}`);
    expect(refused).toEqual([]);
  });
});
