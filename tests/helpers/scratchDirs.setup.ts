// After each unit test file: the folders it made with scratchDir() (tests/helpers/scratch.ts) go, so a run
// leaves nothing in /dev/shm or the temp folder (files share worker processes: isolate is off).
import { afterAll } from 'vitest';
import { removeScratchDirs } from './scratchRoot.ts';

afterAll(removeScratchDirs);
