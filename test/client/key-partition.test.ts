// src/util/sha256.ts and key-partition.ts: the fingerprint is SHA-256, one-way, and swapped as one object.

import { createHash } from "node:crypto";
import { sha256Hex } from "../../src/util/sha256";
import { KeyPartitions, fingerprint } from "../../src/client/key-partition";

const KEY_A = "kaisakey_" + "a".repeat(43);
const KEY_B = "kaisakey_" + "b".repeat(43);
const PROD = "https://api.irbank.net/v1";

test.each([
  "",
  "abc",
  "a".repeat(55),
  "a".repeat(56),
  "a".repeat(64),
  "日本語のキー",
  "x".repeat(1000),
])("sha256Hex matches node:crypto on %#-th input (padding edges, multi-byte text)", (text) => {
  expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
});

test("the fingerprint depends on key and server, ignores surrounding spaces and never contains the key", () => {
  const id = fingerprint(KEY_A, PROD);
  expect(id).toMatch(/^[0-9a-f]{32}$/);
  expect(fingerprint(` ${KEY_A}\n`, PROD)).toBe(id);
  expect(fingerprint(KEY_B, PROD)).not.toBe(id);
  expect(fingerprint(KEY_A, "http://127.0.0.1:8787/v1")).not.toBe(id);
  expect(id).not.toContain(KEY_A.slice(9, 20));
});

test("a change of key calls back once with both partitions; a change of server alone does not", () => {
  const changes: string[] = [];
  const parts = new KeyPartitions((before, after) => changes.push(`${before.id}->${after.id}`));
  const a = parts.of(KEY_A, PROD);
  expect(parts.of(KEY_A, PROD)).toBe(a);
  parts.of(KEY_A, "http://127.0.0.1:8787/v1");
  expect(changes).toEqual([]);
  const b = parts.of(KEY_B, PROD);
  expect(changes).toEqual([`${fingerprint(KEY_A, "http://127.0.0.1:8787/v1")}->${b}`]);
});

test("Forget lists every server's partition of the key used this session, and only that key's", () => {
  const parts = new KeyPartitions(() => undefined);
  const a1 = parts.of(KEY_A, PROD);
  const a2 = parts.of(KEY_A, "http://127.0.0.1:8787/v1");
  const b = parts.of(KEY_B, PROD);
  const ids = parts.idsOf(KEY_A, PROD);
  expect(ids.sort()).toEqual([a1, a2].sort());
  expect(ids).not.toContain(b);
});
