// Profiling aid: Model N (BENCH_MODELS, default 50) alone; PROFILE_OUT=file.cpuprofile records its warm recalculations.
import { Session } from "node:inspector";
import { writeFileSync } from "node:fs";
import { probe } from "./probe";
import { runModel } from "./scale-run";

const out = process.env["PROFILE_OUT"];
const session = new Session();
session.connect();
const post = (method: string, params?: object): Promise<unknown> =>
  new Promise((resolve, reject) =>
    session.post(method, params, (err, res) => (err ? reject(err) : resolve(res))),
  );

void (async () => {
  const facts = await probe(50);
  const taken = new Set(facts.listedCodes);
  for (const count of (process.env["BENCH_MODELS"] ?? "50").split(",").map(Number)) {
    const r = await runModel(facts, taken, count, (line) => {
      process.stdout.write(`${line}\n`);
      // The cold run's summary line comes right before the warm runs; "warm 3" ends them.
      if (out !== undefined && / distinct\), /.test(line))
        void post("Profiler.enable").then(() => post("Profiler.start"));
      if (out !== undefined && /^ {2}warm 3:/.test(line))
        void post("Profiler.stop").then((res) =>
          writeFileSync(out, JSON.stringify((res as { profile: unknown }).profile)),
        );
    });
    process.stdout.write(`heap growth ${Math.round(r.heapGrowthMB)} MB\n`);
  }
  process.exit(0);
})();
