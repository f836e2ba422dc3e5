// Placeholder wiring until the local waitlist backend lands (see src/waitlist/).
import type { Handler } from '../src/serve.ts';

export async function startLocalWaitlist(_root: string): Promise<{ handlers: Handler[]; close: () => Promise<void>; banner: string[] }> {
  return { handlers: [], close: async () => {}, banner: [] };
}

export async function runExport(_root: string, _flags: unknown): Promise<number> {
  process.stderr.write('waitlist export is not available yet\n');
  return 1;
}
