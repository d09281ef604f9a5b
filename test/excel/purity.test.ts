// src/excel stays pure: no module there reaches the client or the domain rules that send requests.

import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const EXCEL = join(__dirname, "../../src/excel");
/** What sends requests: the client itself (its index or client.ts) and src/domain. */
const SENDS = /from "\.\.\/(client"|client\/client"|client\/http"|domain\/)/;

test("no src/excel module imports the client or src/domain", () => {
  const offenders = readdirSync(EXCEL)
    .filter((f) => f.endsWith(".ts"))
    .filter((f) => SENDS.test(readFileSync(join(EXCEL, f), "utf8")));
  expect(offenders).toEqual([]);
});
