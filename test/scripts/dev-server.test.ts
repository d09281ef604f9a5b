// The dev server's relay and static serving, in process (no socket): what reaches the API, what comes
// back, and that neither the key nor other headers leak into logs or upstream requests.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import http from "node:http";
import { createDevApp, findDevCertificate, startDevServer } from "../../scripts/dev-server";
import { pageSettingsScript, PRODUCTION_PAGE_SETTINGS } from "../../scripts/page-settings";

const KEY = "kaisakey_SandboxDemoKeyForKaishaExcelLocalTesting001";
/** The relay tests need no built add-in: an empty directory stands for dist/. */
const EMPTY_DIST = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-empty-dist-"));

afterAll(() => fs.rmSync(EMPTY_DIST, { recursive: true, force: true }));

function recorder(response: () => Response | Promise<Response>) {
  const calls: { url: string; headers: Record<string, string>; method: string }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
    });
    return response();
  }) as typeof fetch;
  return { calls, fetchImpl };
}

describe("dev server relay", () => {
  test("forwards GET /relay/v1/<path>?<query> to the target with the Authorization header only", async () => {
    const { calls, fetchImpl } = recorder(() =>
      Response.json(
        { remaining: 42 },
        { status: 200, headers: { "retry-after": "3", "set-cookie": "x=1" } },
      ),
    );
    const lines: string[] = [];
    const app = createDevApp({
      distDir: EMPTY_DIST,
      relayTarget: "https://api.example.test/v1/",
      fetch: fetchImpl,
      log: (l) => lines.push(l),
    });
    const res = await app.request("/relay/v1/financials?security_code=7203&years=5", {
      headers: {
        Authorization: `Bearer ${KEY}`,
        Cookie: "session=abc",
        Origin: "https://localhost:3000",
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ remaining: 42 });
    expect(res.headers.get("retry-after")).toBe("3");
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(calls).toEqual([
      {
        url: "https://api.example.test/v1/financials?security_code=7203&years=5",
        method: "GET",
        headers: { authorization: `Bearer ${KEY}` },
      },
    ]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^relay GET \/financials -> 200 \(\d+ ms\)$/);
    expect(lines.join("\n")).not.toContain(KEY);
  });

  test("passes API errors through unchanged (status and common error body)", async () => {
    const body = { error: { code: "rate_limited", message: "Too many requests" } };
    const { fetchImpl } = recorder(() =>
      Response.json(body, { status: 429, headers: { "retry-after": "20" } }),
    );
    const res = await createDevApp({ distDir: EMPTY_DIST, fetch: fetchImpl }).request(
      "/relay/v1/usage",
    );
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("20");
    expect(await res.json()).toEqual(body);
  });

  test("an unreachable API is a 502 in the API's error shape, without the key", async () => {
    const { fetchImpl } = recorder(() => {
      throw new TypeError("fetch failed");
    });
    const res = await createDevApp({
      distDir: EMPTY_DIST,
      fetch: fetchImpl,
      relayTarget: "https://down.example.test/v1",
    }).request("/relay/v1/usage", { headers: { Authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(502);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      error: {
        code: "connection_failed",
        message: "The relay could not reach the API.",
      },
    });
    expect(text).not.toContain(KEY);
    expect(text).not.toContain("down.example.test");
  });

  test("refuses paths that climb out of /v1 and methods other than GET, sending nothing", async () => {
    const { calls, fetchImpl } = recorder(() => new Response("{}"));
    const app = createDevApp({ distDir: EMPTY_DIST, fetch: fetchImpl });
    // The URL parser already folds "%2e%2e" away: the request no longer matches the relay at all.
    expect([400, 404]).toContain((await app.request("/relay/v1/%2e%2e/admin")).status);
    const post = await app.request("/relay/v1/usage", { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    const head = await app.request("/relay/v1/usage", { method: "HEAD" });
    expect(head.status).toBe(405);
    expect(head.headers.get("allow")).toBe("GET");
    expect(calls).toHaveLength(0);
  });

  /** A raw request line over a real socket: nothing normalises the path on the way. */
  function rawGet(
    port: number,
    pathAsSent: string,
    host = `127.0.0.1:${port}`,
  ): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: "127.0.0.1", port, path: pathAsSent, method: "GET", headers: { Host: host } },
        (res) => {
          let body = "";
          res.setEncoding("utf8");
          res.on("data", (d: string) => (body += d));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on("error", reject);
      req.end();
    });
  }

  test("encoded traversal (%2f, %2e%2e, ..;) is refused with 400 before anything is forwarded", async () => {
    const { calls, fetchImpl } = recorder(() => new Response("{}"));
    const server = await startDevServer({
      port: 0,
      distDir: EMPTY_DIST,
      fetch: fetchImpl,
      relayTarget: "https://secret-target.example.test/v1",
    });
    try {
      for (const p of [
        "/relay/v1/%2e%2e/admin",
        "/relay/v1/%2E%2E/%2E%2E/etc/passwd",
        "/relay/v1/securities%2f..%2fadmin",
        "/relay/v1/..;/admin",
        "/relay/v1/usage;x=1",
        "/relay/v1/%252e%252e/admin",
        "/relay/%2e%2e/v2/usage",
      ]) {
        const res = await rawGet(server.port, p);
        expect([p, res.status]).toEqual([p, 400]);
        expect(res.body).not.toContain("secret-target");
      }
      expect(calls).toHaveLength(0);
      // A plain path still goes through.
      expect((await rawGet(server.port, "/relay/v1/usage")).status).toBe(200);
      expect(calls).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  test("a Host header naming another site (DNS rebinding) is refused, pages and relay alike", async () => {
    const { calls, fetchImpl } = recorder(() => new Response("{}"));
    const server = await startDevServer({ port: 0, distDir: EMPTY_DIST, fetch: fetchImpl });
    try {
      const evil = `rebind.attacker.example:${server.port}`;
      expect((await rawGet(server.port, "/relay/v1/usage", evil)).status).toBe(403);
      expect((await rawGet(server.port, "/", evil)).status).toBe(403);
      expect(calls).toHaveLength(0);
      expect((await rawGet(server.port, "/", `localhost:${server.port}`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("dev server static files", () => {
  test("serves the built add-in from distDir with no-store caching, and an index of the pages", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-dist-"));
    fs.writeFileSync(path.join(dir, "taskpane.html"), "<!doctype html><title>pane</title>");
    try {
      const app = createDevApp({ distDir: dir });
      const page = await app.request("/taskpane.html");
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("<title>pane</title>");
      expect(page.headers.get("cache-control")).toBe("no-store");
      expect(await (await app.request("/")).text()).toContain('href="/preview.html"');
      expect((await app.request("/missing.js")).status).toBe(404);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("pageSettings: the settings file answered with the server's settings, no-store; without, the file as built", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-dist-"));
    const built = pageSettingsScript({
      baseUrl: "http://127.0.0.1:8787/v1",
      demoKey: KEY,
      urlOverrides: true,
    });
    fs.writeFileSync(path.join(dir, "kaisha-settings.js"), built);
    try {
      const asBuilt = await createDevApp({ distDir: dir }).request("/kaisha-settings.js");
      expect(await asBuilt.text()).toBe(built);
      const app = createDevApp({ distDir: dir, pageSettings: PRODUCTION_PAGE_SETTINGS });
      const served = await app.request("/kaisha-settings.js");
      expect(served.status).toBe(200);
      expect(served.headers.get("content-type")).toMatch(/^text\/javascript/);
      expect(served.headers.get("cache-control")).toBe("no-store");
      const text = await served.text();
      expect(text).toBe(pageSettingsScript(PRODUCTION_PAGE_SETTINGS));
      // What a page reads: the three globals, production's.
      const page: Record<string, unknown> = {};
      new Function("self", text)(page);
      expect(page).toEqual({
        __KAISHA_DEFAULT_BASE_URL__: "https://api.irbank.net/v1",
        __KAISHA_DEMO_KEY__: "",
        __KAISHA_URL_OVERRIDES__: false,
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test("finds the dev certificate in HTTPS_KEY/HTTPS_CERT or ~/.office-addin-dev-certs", () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), "kaisha-home-"));
    try {
      expect(findDevCertificate({}, home)).toBeUndefined();
      const certs = path.join(home, ".office-addin-dev-certs");
      fs.mkdirSync(certs);
      fs.writeFileSync(path.join(certs, "localhost.key"), "KEY");
      fs.writeFileSync(path.join(certs, "localhost.crt"), "CERT");
      expect(findDevCertificate({}, home)).toMatchObject({
        source: path.join(certs, "localhost.crt"),
      });
      const own = path.join(home, "own.pem");
      fs.writeFileSync(own, "OWN");
      expect(findDevCertificate({ HTTPS_KEY: own, HTTPS_CERT: own }, home)?.source).toBe(own);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  });
});
