// Profiling aid: Model N (BENCH_MODELS, default 50) alone, for `node --cpu-prof -r ts-node/register bench/profile-warm.ts`.
import { probe } from "./probe";
import { runModel } from "./scale-run";

void (async () => {
  const facts = await probe(50);
  const taken = new Set(facts.listedCodes);
  for (const count of (process.env["BENCH_MODELS"] ?? "50").split(",").map(Number)) {
    const r = await runModel(facts, taken, count, (l) => process.stdout.write(`${l}\n`));
    process.stdout.write(`heap growth ${r.heapGrowthMB} MB\n`);
  }
  process.exit(0);
})();
