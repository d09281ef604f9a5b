// The builder at 320 px reads in the user's language: lists show their values' names and which one an
// empty field means (never the description's API words), an item the function would not take is
// kept with the nearest item offered, and a search box typed into after a pick searches anew.
import {
  builderCatalogue,
  builderFormula,
  choiceDefault,
  type BuilderFunction,
} from "../../taskpane/state/function-catalogue";
import { BuilderSection, itemChoice, ParamInput } from "../../taskpane/components/builder-section";
import { searchTextAfterPick } from "../../taskpane/state/search-text";
import { generatedFunctionsJson } from "./functions-metadata";
import { renderInPane } from "./render-in-pane";
import type { PaneClient } from "../../taskpane/state/pane-client";
import type { FunctionMetadata } from "../../taskpane/state/function-catalogue";

const { buildFunctionsJa } = require("../../scripts/functions-ja.js") as {
  buildFunctionsJa: (json: unknown, table: unknown) => { functions: FunctionMetadata[] };
};
const table = require("../../scripts/functions-ja-table.json") as unknown;

let catalogue: BuilderFunction[];
beforeAll(async () => {
  const json = await generatedFunctionsJson();
  catalogue = builderCatalogue(json.functions, buildFunctionsJa(json, table).functions, json.enums);
}, 60_000);

const client = {
  stats: () => ({ requestsSent: 0, cacheHits: 0, coalesced: 0 }),
} as unknown as PaneClient;

function fn(name: string): BuilderFunction {
  const f = catalogue.find((x) => x.name === name);
  if (!f) throw new Error(`no ${name}`);
  return f;
}

function param(fnName: string, name: string) {
  const p = fn(fnName).params.find((x) => x.name === name);
  if (!p) throw new Error(`no ${fnName}.${name}`);
  return p;
}

/** The text a reader sees: tags dropped, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, " ");
}

const field = (fnName: string, name: string, value: string, lang: "ja" | "en") =>
  renderInPane(
    <ParamInput fn={fn(fnName)} param={param(fnName, name)} value={value} onChange={() => {}} />,
    client,
    lang,
  );

describe("search boxes", () => {
  const picked = "7203 大和自動車（サンプル） · 輸送用機器 · プライム";

  test("typing after the picked company's line searches for what was typed, not the line plus it", () => {
    expect(searchTextAfterPick(picked, `${picked}6758`, picked)).toBe("6758");
    expect(searchTextAfterPick(picked, `${picked}ソ`, picked)).toBe("ソ");
  });

  test("typed anywhere into the line (a click leaves the caret inside it), the typed text is the search", () => {
    expect(
      searchTextAfterPick(
        picked,
        `7203 大和6758自動車（サンプル） · 輸送用機器 · プライム`,
        picked,
      ),
    ).toBe("6758");
    expect(searchTextAfterPick(picked, `6${picked}`, picked)).toBe("6");
  });

  test("any other edit reads as it is: a box without a pick, a shortened pick, an edit inside it", () => {
    expect(searchTextAfterPick("ソラ", "ソラシ", undefined)).toBe("ソラシ");
    expect(searchTextAfterPick("ソラ", "ソラシ", picked)).toBe("ソラシ");
    expect(searchTextAfterPick(picked, picked.slice(0, -1), picked)).toBe(picked.slice(0, -1));
    expect(searchTextAfterPick("売上高", "売上高", "売上高")).toBe("売上高");
  });
});

describe("list choices in the user's language", () => {
  test("the default each list documents is read from its description", () => {
    expect(choiceDefault(param("FINANCIAL", "period"))).toBe("annual");
    expect(choiceDefault(param("FINANCIAL", "unit"))).toBe("jpy");
    expect(choiceDefault(param("FINANCIALS", "headers"))).toBe("1");
    expect(choiceDefault(param("FINANCIALS", "order"))).toBe("asc");
    expect(choiceDefault(param("SCREEN", "sort_order"))).toBe("desc");
    expect(choiceDefault(param("PRICE", "field"))).toBe("close");
    // A list whose description names no default has none.
    expect(choiceDefault(param("FINANCIAL", "quarter"))).toBeUndefined();
  });

  test("Japanese: 通期 / 四半期 / 半期 and 百万円, the empty choice says 既定：通期; no API word is shown", () => {
    const period = visibleText(field("FINANCIAL", "period", "", "ja"));
    expect(period).toContain("既定：通期");
    for (const word of ["通期", "四半期", "半期", "直近12か月（LTM）"])
      expect(period).toContain(word);
    const unit = visibleText(field("FINANCIAL", "unit", "", "ja"));
    for (const word of ["既定：円", "千円", "百万円", "億円"]) expect(unit).toContain(word);
    for (const text of [period, unit]) {
      expect(text).not.toMatch(/annual|quarterly|semiannual|thousand_jpy|million_jpy|（既定）/);
    }
  });

  test("English: Annual / Quarterly / Half-year and JPY millions; no API word is shown", () => {
    const period = visibleText(field("FINANCIAL", "period", "", "en"));
    for (const word of ["Default: Annual", "Quarterly", "Half-year"])
      expect(period).toContain(word);
    const unit = visibleText(field("FINANCIAL", "unit", "", "en"));
    for (const word of ["Default: JPY", "JPY thousands", "JPY millions"])
      expect(unit).toContain(word);
    for (const text of [period, unit]) {
      expect(text).not.toMatch(/\b(annual|quarterly|semiannual|thousand_jpy|million_jpy)\b/);
    }
  });

  test("the formula keeps the API word the function takes", () => {
    expect(
      builderFormula(fn("FINANCIAL"), {
        company: "7203",
        item: "sales",
        period: "semiannual",
        unit: "million_jpy",
      }),
    ).toBe('=KAISHA.FINANCIAL("7203","sales",,"semiannual",,"million_jpy")');
  });
});

describe("an item the function would not take", () => {
  test("a key or a name the function reads is that item; a typo is kept with the nearest item", () => {
    expect(itemChoice("financials", "sales")).toEqual({ key: "sales" });
    expect(itemChoice("financials", "売上高")).toEqual({ key: "sales" });
    expect(itemChoice("financials", "operatingProfit")).toEqual({ key: "operating_profit" });
    expect(itemChoice("financials", "salez")).toMatchObject({
      unknown: "salez",
      suggestion: { key: "sales" },
    });
    expect(itemChoice("financials", "zzzzzzzz")).toEqual({ unknown: "zzzzzzzz" });
    // A cell reference is the user's own: nothing to suggest.
    expect(itemChoice("financials", "=B2")).toEqual({ key: "=B2" });
  });

  test('opened on FINANCIAL(7203,"salez"), the item box keeps salez and offers 売上高 (sales)', () => {
    const ja = field("FINANCIAL", "item", "salez", "ja");
    expect(ja).toContain('data-testid="builder-arg-item-unknown"');
    expect(ja).toContain('data-suggestion="sales"');
    expect(ja).toContain('value="salez"');
    const text = visibleText(ja);
    expect(text).toContain("「salez」という項目はありません。近い項目：売上高（sales）");
    expect(text).toContain("売上高（sales） にする");
    const en = visibleText(field("FINANCIAL", "item", "salez", "en"));
    expect(en).toContain('There is no item "salez". Nearest: Net sales (sales).');
  });

  test("an item given by its Japanese name shows as that item, with no warning", () => {
    const html = field("FINANCIAL", "item", "売上高", "ja");
    expect(html).not.toContain("builder-arg-item-unknown");
    expect(html).toContain('value="売上高"');
  });
});

test("the formula and Insert sit in one bar at the pane's foot, after every field", () => {
  const html = renderInPane(<BuilderSection catalogue={catalogue} />, client, "ja");
  const bar = html.indexOf('data-testid="builder-bar"');
  expect(bar).toBeGreaterThan(-1);
  expect(html).toContain('class="kaisha-builder-bar"');
  // Everything the analyst acts on is inside the bar, after every field.
  for (const id of ["builder-formula-preview", "builder-insert"]) {
    expect(html.indexOf(`data-testid="${id}"`)).toBeGreaterThan(bar);
  }
  for (const p of fn("FINANCIAL").params) {
    expect(html.indexOf(`data-testid="builder-arg-${p.name}"`)).toBeLessThan(bar);
  }
});
