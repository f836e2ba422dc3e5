// A server started by npm (`npm run dev`, `npx sitegen preview`) runs under a shell npm starts for it. Stopping
// npm with a signal (a process manager, an editor's task runner, `kill`) ends npm and that shell, and the
// shell does not pass the signal on: the server would keep serving, and holding its port, with no parent.
// So a server npm started stops as it would on that signal once its parent is gone (Linux and macOS give
// an orphan a new parent; on Windows nothing is watched). One started otherwise (`nohup sitegen dev &` from
// a shell that then exits) is left running: outliving its parent is what it was asked to do. Inside an npm
// script the two cannot be told apart from here, so such a script sets SITEGEN_KEEP_RUNNING=1.

/** Calls `stop` (once) when the process that started this one ends, if npm started it. */
export function stopWithNpm(stop: () => void, env: NodeJS.ProcessEnv = process.env, everyMs = 1000): void {
  if ((!env.npm_lifecycle_event && !env.npm_command) || env.SITEGEN_KEEP_RUNNING === '1' || process.platform === 'win32') return;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  timer.unref();
}
