// Client code fetched on first need: loaded once, and a chunk that cannot be fetched is an actionable connection error, tried again next time.

import { ConnectionError } from "../../src/client/errors";
import { lazyCode } from "../../src/client/lazy-code";

test("a module is loaded once and kept for every later call", async () => {
  const load = jest.fn(() => Promise.resolve({ answer: 42 }));
  const code = lazyCode(load);
  const [a, b] = await Promise.all([code(), code()]);
  expect((await code()).answer).toBe(42);
  expect(a).toBe(b);
  expect(load).toHaveBeenCalledTimes(1);
});

test("a failed load is a ConnectionError saying what to do (en and ja), and the next call loads again", async () => {
  let fail = true;
  const load = jest.fn(() =>
    fail
      ? Promise.reject(new Error("ChunkLoadError: Loading chunk answer-check failed"))
      : Promise.resolve({ ok: true }),
  );
  const code = lazyCode(load);
  const err = await code().catch((e: unknown) => e);
  expect(err).toBeInstanceOf(ConnectionError);
  expect((err as ConnectionError).message).toBe(
    "The add-in could not load part of its code: check the connection, then recalculate",
  );
  expect((err as ConnectionError).messageJa).toBe(
    "アドインのプログラムの一部を読み込めませんでした：接続を確認してから再計算してください",
  );
  // The chunk's own error text (a URL of the add-in's origin) is not what the user reads.
  expect((err as ConnectionError).message).not.toContain("ChunkLoadError");
  fail = false;
  await expect(code()).resolves.toEqual({ ok: true });
  expect(load).toHaveBeenCalledTimes(2);
});
