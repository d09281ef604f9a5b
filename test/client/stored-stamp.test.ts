// Stored-answer check on a reopen: records this version stored pass without being walked again; older or foreign ones are checked in full.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { IDBFactory } from "fake-indexeddb";
import { tiered } from "../../functions/addin-cache";
import { openIdbBackend } from "../../src/client/idb-backend";
import { PersistentCacheStore, type StoredRecord } from "../../src/client/persistent-store";
import { checkAnswer } from "../../src/client/response-check";
import { toStoredForm } from "../../src/client/stored-form";
import { storedStamp } from "../../src/client/stored-stamp";
import { sha256Hex } from "../../src/util/sha256";
import { createApp } from "../../sandbox/app";
import { DEMO_API_KEY } from "../../sandbox/demo-key";

/** A real answer of the sandbox (the API's shape, every field the contract names). */
async function financials(): Promise<unknown> {
  const sandbox = createApp({ ratePerMinute: 0 });
  const answer = await sandbox.app.request("/v1/financials?security_code=1801&years=30", {
    headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
  });
  return answer.json();
}

const KEY = "0a1b/financials?period=annual&security_code=7203&years=30";

/** A store writing when the test flushes. */
const storeOn = (idb: IDBFactory): PersistentCacheStore =>
  new PersistentCacheStore(openIdbBackend(idb), { schedule: () => undefined });

/** Writes `body` as a record of its own, stamped `checked` (undefined: as stored before stamps). */
async function writeRecord(idb: IDBFactory, body: unknown, checked?: string): Promise<void> {
  const backend = await openIdbBackend(idb);
  const record: StoredRecord = {
    body: await toStoredForm(body),
    storedAt: 1_000,
    bytes: 100,
    ...(checked === undefined ? {} : { checked }),
  };
  await backend.commit({
    put: [{ row: { key: KEY, bytes: 200, storedAt: 1_000, lastUsed: 1_000 }, record }],
    touch: [],
    remove: [],
  });
}

// The contract check itself, counted: how many answers the reopen walked.
jest.mock("../../src/client/response-check", () => {
  const actual = jest.requireActual<typeof import("../../src/client/response-check")>(
    "../../src/client/response-check",
  );
  return { ...actual, checkAnswer: jest.fn(actual.checkAnswer) };
});
const checks = checkAnswer as jest.MockedFunction<typeof checkAnswer>;
beforeEach(() => checks.mockClear());

test("an answer this version stored is read back after a reopen without walking it again", async () => {
  const idb = new IDBFactory();
  const first = storeOn(idb);
  const body = await financials();
  await first.set(KEY, { body, storedAt: 1_000, bytes: 100 });
  await first.flush();
  const reopened = tiered(storeOn(idb));
  const read = await reopened.get(KEY);
  expect(read?.body).toEqual(body);
  expect(checks).not.toHaveBeenCalled();
});

test("a record stored before stamps is checked in full and, valid, read as before", async () => {
  const idb = new IDBFactory();
  const body = await financials();
  await writeRecord(idb, body);
  const read = await tiered(storeOn(idb)).get(KEY);
  expect(read?.body).toEqual(body);
  expect(checks).toHaveBeenCalledTimes(1);
});

test.each([
  ["stored before stamps", undefined],
  ["stamped by another version", "another version's stamp"],
])("a record of another shape %s is checked, a miss, and removed", async (_name, checked) => {
  const idb = new IDBFactory();
  await writeRecord(idb, [1, 2, 3], checked);
  const persistent = storeOn(idb);
  expect(await tiered(persistent).get(KEY)).toBeUndefined();
  expect(checks).toHaveBeenCalledTimes(1);
  expect(await persistent.keys()).toEqual([]);
});

test("the stamp is the same within a version and names the contract's shapes", () => {
  expect(storedStamp()).toBe(storedStamp());
  expect(storedStamp()).toMatch(/^[0-9a-f]{64}$/);
});

/**
 * The code that decides what passes the check, comments and blank lines left out. When this test
 * fails, that code changed: if what passes changed too, bump CHECK_VERSION in
 * src/client/stored-stamp.ts (every stored record is then checked again when read back); then put
 * the new hash here.
 */
test("what passes the stored-answer check is the code CHECK_VERSION was set for", () => {
  const code = ["response-check.ts", "duplicate-rows.ts"]
    .map((file) => readFileSync(join(__dirname, "../../src/client", file), "utf8"))
    .join("\n")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "")
    .replace(/\s+/g, " ");
  expect(sha256Hex(code)).toBe("e2685f4aaa5f2b393b55b0b7919558566bc00e77a83cbeda67bb3ea0e0d397cd");
});
