// Budgets of the linear-time tests in CPU time: the milliseconds this process spent on a synchronous call,
// not the wall clock. On a busy machine (two test files at once, the e2e suite beside the unit suite, other
// jobs) the process waits for a core, which the wall clock counts and CPU time does not; a scan that goes
// back over its input costs CPU time all the same, so each budget stays what it was.
export function cpuMs(fn: () => unknown): number {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}
