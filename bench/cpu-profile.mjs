/**
 * Sampling CPU profile of every Punctual worker process a bench run starts (Node's `--cpu-prof` is refused in
 * NODE_OPTIONS, this is the same profiler through `node:inspector`):
 *
 *   BENCH_PROFILE_DIR=/tmp/prof NODE_OPTIONS="--import=./bench/cpu-profile.mjs" npm run bench -- --quick --only drain --sinks null
 *
 * writes `<dir>/worker-<pid>.cpuprofile` when each worker exits (open it in Chrome DevTools → Performance, or
 * speedscope). Processes other than scripts/worker.ts are left alone. Sampling interval 500 µs.
 */
import fs from 'node:fs';
import inspector from 'node:inspector';
import path from 'node:path';

const dir = process.env.BENCH_PROFILE_DIR;
if (dir && process.argv.some((a) => a.endsWith(path.join('scripts', 'worker.ts')))) {
  fs.mkdirSync(dir, { recursive: true });
  const session = new inspector.Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  session.post('Profiler.start');
  // The in-thread inspector answers synchronously, so the profile is written inside the 'exit' handler.
  process.on('exit', () => {
    session.post('Profiler.stop', (err, result) => {
      if (!err) fs.writeFileSync(path.join(dir, `worker-${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  });
}
