// CORS: the add-in's dev origins may call the sandbox directly; preflight never needs a key.
import { DEMO_API_KEY } from "../../sandbox/demo-key";
import { makeSandbox } from "./helpers";

function preflight(origin: string) {
  return {
    method: "OPTIONS",
    headers: {
      Origin: origin,
      "Access-Control-Request-Method": "GET",
      "Access-Control-Request-Headers": "authorization",
    },
  };
}

describe("CORS", () => {
  test.each(["https://localhost:3000", "http://localhost:3000", "http://127.0.0.1:3000"])(
    "preflight from %s -> 204 allowing GET and Authorization, without a key",
    async (origin) => {
      const sandbox = makeSandbox();
      const res = await sandbox.app.request("/v1/financials?security_code=7203", preflight(origin));
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
      expect(res.headers.get("access-control-allow-methods")).toContain("GET");
      expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(
        "authorization",
      );
    },
  );

  test("preflight does not consume the daily budget", async () => {
    const sandbox = makeSandbox({ dailyLimit: 5 });
    await sandbox.app.request("/v1/usage", preflight("https://localhost:3000"));
    const usage = await sandbox.app.request("/v1/usage", {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(((await usage.json()) as { used: number }).used).toBe(0);
  });

  test("an origin outside the list gets no Access-Control-Allow-Origin", async () => {
    const sandbox = makeSandbox();
    const res = await sandbox.app.request("/v1/usage", preflight("https://evil.example"));
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });

  test("corsOrigins adds origins; '*' allows any", async () => {
    const listed = makeSandbox({ corsOrigins: ["https://addin.example"] });
    const res = await listed.app.request("/v1/usage", preflight("https://addin.example"));
    expect(res.headers.get("access-control-allow-origin")).toBe("https://addin.example");
    const open = makeSandbox({ corsOrigins: ["*"] });
    const any = await open.app.request("/v1/usage", preflight("https://anything.example"));
    expect(any.headers.get("access-control-allow-origin")).toBe("https://anything.example");
  });

  test("actual responses (including errors) carry the allow-origin header and expose Retry-After", async () => {
    const sandbox = makeSandbox();
    const res = await sandbox.app.request("/v1/usage", {
      headers: { Origin: "http://localhost:3000" },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    expect(res.headers.get("access-control-expose-headers")).toContain("Retry-After");
  });
});
