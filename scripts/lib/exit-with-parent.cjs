// Preloaded (NODE_OPTIONS=--require) into every Node process the launcher starts — the app
// server, the worker, the sandbox, and their own children: when the process that started this
// one dies (SIGKILL included, which leaves no chance to clean up), this one is re-parented, and
// it then stops itself. Otherwise an orphaned app server or sandbox would keep holding PORT or
// SANDBOX_PORT and a restart could not start. SIGTERM first, so the process's own shutdown runs;
// a hard exit if that takes more than 10 s.
"use strict";
const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  setTimeout(() => process.exit(1), 10_000).unref();
  process.kill(process.pid, "SIGTERM");
}, 250);
timer.unref();
