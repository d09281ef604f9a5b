// Checks manifest.xml offline with office-addin-manifest's own reader: shared runtime wiring, resids,
// requirement sets, namespace, Japanese overrides and one origin for every URL.
import { readFileSync } from "node:fs";
import path from "node:path";
import { OfficeAddinManifest } from "office-addin-manifest";
import { ManifestHandlerXml } from "office-addin-manifest/lib/manifestHandler/manifestHandlerXml";

// The package's JSON-manifest handler loads @microsoft/app-manifest and uuid, ES modules jest cannot
// require on Node 20; reading an XML manifest uses neither, so both are replaced by stand-ins.
jest.mock("@microsoft/app-manifest", () => ({}));
jest.mock("uuid", () => ({ v4: () => require("node:crypto").randomUUID() }));

const MANIFEST = path.join(__dirname, "..", "manifest.xml");

/** An element as xml2js gives it: attributes under `$`, children as arrays by tag name. */
type XmlNode = { $?: Record<string, string>; [child: string]: unknown };

function children(node: XmlNode, tag: string): XmlNode[] {
  const value = node[tag];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function child(node: XmlNode, ...tags: string[]): XmlNode {
  let current = node;
  for (const tag of tags) {
    const next = children(current, tag)[0];
    if (!next) throw new Error(`manifest: missing <${tag}>`);
    current = next;
  }
  return current;
}

/** Every element in document order, with its tag name. */
function walk(node: XmlNode, tag: string, out: { tag: string; node: XmlNode }[] = []) {
  out.push({ tag, node });
  for (const [key, value] of Object.entries(node)) {
    if (key === "$" || key === "_" || !Array.isArray(value)) continue;
    for (const item of value) if (item && typeof item === "object") walk(item as XmlNode, key, out);
  }
  return out;
}

let root: XmlNode;
let all: { tag: string; node: XmlNode }[];
let host: XmlNode;
let resources: XmlNode;

beforeAll(async () => {
  const xml = (await new ManifestHandlerXml(MANIFEST).parseXmlAsync()) as { OfficeApp: XmlNode };
  root = xml.OfficeApp;
  all = walk(root, "OfficeApp");
  host = child(root, "VersionOverrides", "Hosts", "Host");
  resources = child(root, "VersionOverrides", "Resources");
});

/** id -> element for every resource (images, urls, short and long strings). */
function resourceIds(): Map<string, XmlNode> {
  const ids = new Map<string, XmlNode>();
  for (const [group, item] of [
    ["bt:Images", "bt:Image"],
    ["bt:Urls", "bt:Url"],
    ["bt:ShortStrings", "bt:String"],
    ["bt:LongStrings", "bt:String"],
  ] as const) {
    for (const element of children(child(resources, group), item)) {
      const id = element.$?.["id"];
      if (id) ids.set(id, element);
    }
  }
  return ids;
}

function resourceValue(id: string): string {
  const value = resourceIds().get(id)?.$?.["DefaultValue"];
  if (value === undefined) throw new Error(`manifest: resid ${id} has no DefaultValue`);
  return value;
}

describe("manifest.xml", () => {
  test("reads as a task pane add-in for Excel workbooks", async () => {
    const info = await OfficeAddinManifest.readManifestFile(MANIFEST);
    expect(info.officeAppType).toBe("TaskPaneApp");
    expect(info.hosts).toEqual(["Workbook"]);
    expect(info.displayName).toBe("Kaisha for Excel");
    expect(info.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(info.defaultSettings?.sourceLocation).toBe("https://localhost:3000/taskpane.html");
    expect(info.permissions).toBe("ReadWriteDocument");
  });

  test("every resid used is defined exactly once in Resources", () => {
    const defined = new Map<string, number>();
    for (const { tag, node } of all) {
      const id = node.$?.["id"];
      if (id && /^bt:(Image|Url|String)$/.test(tag)) defined.set(id, (defined.get(id) ?? 0) + 1);
    }
    const used = all.map(({ node }) => node.$?.["resid"]).filter((r): r is string => !!r);
    expect(used.length).toBeGreaterThan(10);
    for (const resid of used) expect([resid, defined.get(resid)]).toEqual([resid, 1]);
  });

  test("shared runtime: runtime, custom functions page, function file and button share one page", () => {
    const runtime = child(host, "Runtimes", "Runtime");
    expect(runtime.$).toEqual({ resid: "Taskpane.Url", lifetime: "long" });
    const cf = children(child(host, "AllFormFactors"), "ExtensionPoint").find(
      (e) => e.$?.["xsi:type"] === "CustomFunctions",
    );
    if (!cf) throw new Error("manifest: no CustomFunctions extension point");
    expect(child(cf, "Page", "SourceLocation").$?.["resid"]).toBe("Taskpane.Url");
    const desktop = child(host, "DesktopFormFactor");
    expect(child(desktop, "FunctionFile").$?.["resid"]).toBe("Taskpane.Url");
    const action = all.find(
      ({ tag, node }) => tag === "Action" && node.$?.["xsi:type"] === "ShowTaskpane",
    );
    expect(action && child(action.node, "SourceLocation").$?.["resid"]).toBe("Taskpane.Url");
    expect(resourceValue("Taskpane.Url")).toBe("https://localhost:3000/taskpane.html");
    // The functions bundle is served next to the page (it is also included in it).
    expect(resourceValue(child(cf, "Script", "SourceLocation").$?.["resid"] ?? "")).toBe(
      "https://localhost:3000/functions.js",
    );
  });

  test("requires SharedRuntime 1.1 and CustomFunctionsRuntime 1.1", () => {
    const sets = children(child(root, "Requirements", "Sets"), "Set").map((s) => s.$);
    expect(sets).toEqual(
      expect.arrayContaining([
        { Name: "SharedRuntime", MinVersion: "1.1" },
        { Name: "CustomFunctionsRuntime", MinVersion: "1.1" },
      ]),
    );
  });

  test("functions live in the KAISHA namespace", () => {
    const ns = all.find(({ tag }) => tag === "Namespace");
    expect(resourceValue(ns?.node.$?.["resid"] ?? "")).toBe("KAISHA");
  });

  test("Japanese Office gets functions-ja.json, a Japanese name, description and ribbon strings", () => {
    const metadataResid = all.find(({ tag }) => tag === "Metadata");
    const resid = metadataResid && child(metadataResid.node, "SourceLocation").$?.["resid"];
    const metadata = resourceIds().get(resid ?? "");
    expect(metadata?.$?.["DefaultValue"]).toBe("https://localhost:3000/functions.json");
    expect(children(metadata ?? {}, "bt:Override").map((o) => o.$)).toEqual([
      { Locale: "ja-JP", Value: "https://localhost:3000/functions-ja.json" },
    ]);
    for (const tag of ["DisplayName", "Description"]) {
      const override = children(child(root, tag), "Override")[0];
      expect(override?.$?.["Locale"]).toBe("ja-JP");
      expect(override?.$?.["Value"]).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    for (const id of ["Kaisha.TaskpaneButton.Label", "Kaisha.TaskpaneButton.Tooltip"]) {
      const override = children(resourceIds().get(id) ?? {}, "bt:Override")[0];
      expect([id, override?.$?.["Locale"]]).toEqual([id, "ja-JP"]);
    }
  });

  test("the ribbon button sits in its own group on the Home tab and opens the pane", () => {
    const tab = all.find(({ tag }) => tag === "OfficeTab");
    expect(tab?.node.$?.["id"]).toBe("TabHome");
    const group = child(tab?.node ?? {}, "Group");
    expect(group.$?.["id"]).toBe("Kaisha.Group");
    expect(child(group, "Control").$?.["xsi:type"]).toBe("Button");
  });

  test("icons: IconUrl is a 32x32 PNG, HighResolutionIconUrl a 64x64 PNG, ribbon images their size", () => {
    // Microsoft's manifest reference: IconUrl 32x32, HighResolutionIconUrl 64x64 (AppSource checks
    // both); bt:Image sizes 16/32/80 must match the files they name.
    const icon = (tag: string): string => child(root, tag).$?.["DefaultValue"] ?? "";
    expect(pngSize(icon("IconUrl"))).toEqual([32, 32]);
    expect(pngSize(icon("HighResolutionIconUrl"))).toEqual([64, 64]);
    for (const { tag, node } of all) {
      // Resource definitions (id + DefaultValue); the <Icon> children only point at them by resid.
      if (tag !== "bt:Image" || node.$?.["DefaultValue"] === undefined) continue;
      const id = node.$?.["id"] ?? "";
      const size = Number(/(\d+)x\d+$/.exec(id)?.[1]);
      expect([id, pngSize(node.$?.["DefaultValue"] ?? "")]).toEqual([id, [size, size]]);
    }
  });

  test("every URL in the manifest shares one origin and is https", () => {
    const urls: string[] = [];
    for (const { node } of all) {
      for (const [name, value] of Object.entries(node.$ ?? {})) {
        if (/^(DefaultValue|Value)$/.test(name) && /^[a-z]+:\/\//i.test(value)) urls.push(value);
      }
    }
    expect(urls.length).toBeGreaterThanOrEqual(10);
    const origins = new Set(urls.map((u) => new URL(u).origin));
    expect([...origins]).toEqual(["https://localhost:3000"]);
  });
});

/** [width, height] of the PNG a manifest URL names (its file under assets/), from the IHDR chunk. */
function pngSize(url: string): [number, number] {
  const file = path.join(__dirname, "..", new URL(url).pathname);
  const png = readFileSync(file);
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  expect(png.subarray(12, 16).toString("latin1")).toBe("IHDR");
  return [png.readUInt32BE(16), png.readUInt32BE(20)];
}
