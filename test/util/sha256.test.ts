// The synchronous SHA-256 behind the cache partition's fingerprint: the same digests as Node's crypto.

import { createHash } from "node:crypto";
import { sha256Hex } from "../../src/util/sha256";

const nodeSha256 = (text: string): string =>
  createHash("sha256").update(text, "utf8").digest("hex");

test("digests match FIPS 180-4's examples and Node's crypto, one block and many, ASCII and Japanese", () => {
  expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  expect(sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  const texts = [
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
    "kaisha-cache-partition-v1\nhttps://api.irbank.net/v1\nkaisakey_0123456789abcdef",
    "トヨタ自動車 7203 営業利益",
    ...[55, 56, 63, 64, 65, 119, 120, 1000].map((n) => "x".repeat(n)),
  ];
  for (const text of texts)
    expect([text.length, sha256Hex(text)]).toEqual([text.length, nodeSha256(text)]);
});
