// "Why this number" resolution against the in-process sandbox: the period and row a cell reads, the
// filing among the company's disclosures, the qualifiers, and no request but the disclosures list.
import { financial } from "../../../functions/financial-cell";
import { financials } from "../../../functions/financials";
import { price } from "../../../functions/price-cell";
import { segments } from "../../../functions/segments";
import { invocation, resetSession, useSandbox, type Harness } from "../../functions/harness";
import {
  traceCell,
  type SelectedCell,
  type TraceDeps,
} from "../../../taskpane/trace/resolve-trace";
import { matchFilings } from "../../../taskpane/trace/filing-match";
import { storedAnswer } from "../../../taskpane/trace/stored-answer";
import { financialQualifiers } from "../../../taskpane/trace/trace-model";
import type { FinancialsPeriod, SecurityDisclosure } from "../../../src/contract";

afterAll(resetSession);

function deps(h: Harness): TraceDeps {
  return {
    client: h.client,
    disclosures: (code) => h.client.securityDisclosures({ code }),
  };
}

function cell(formula: string, args: unknown[], extra: Partial<SelectedCell> = {}): SelectedCell {
  return {
    address: "Model!B2",
    anchor: "Model!B2",
    formula,
    args,
    offset: { row: 0, col: 0 },
    value: null,
    shown: "",
    ...extra,
  };
}

describe("tracing a FINANCIAL cell", () => {
  test("FY-1: the previous fiscal year in words, the API's figure, its 決算短信 and 有報, one request for the list", async () => {
    const h = useSandbox();
    const value = await financial("7203", "sales", -1, null, null, null, invocation());
    const sentBefore = h.requests();
    const trace = await traceCell(
      cell('=KAISHA.FINANCIAL(7203,"sales",-1)', [7203, "sales", -1, null, null, null]),
      deps(h),
      "ja",
    );
    const body = await h.client.financials({ security_code: "7203", period: "annual", years: 30 });
    const previous = body.periods[body.periods.length - 2] as FinancialsPeriod;
    const [y, m] = previous.fiscal_year.split("/");
    expect(trace.period?.label).toBe(`${y}年${Number(m)}月期`);
    expect(trace.apiValue).toBe(previous.sales);
    expect(trace.apiValue).toBe(value);
    expect(trace.item).toEqual({ key: "sales", label: "売上高", unit: "jpy" });
    expect(trace.company?.code).toBe("7203");
    expect(trace.company?.edinet).toBe(body.edinet_code);
    expect(trace.request).toEqual({
      endpoint: "GET /financials",
      params: expect.objectContaining({ security_code: "7203", period: "annual" }),
    });
    expect(trace.fetch?.state).toBe("current");
    // The filings of that year: the results report first, then the annual report.
    expect(trace.source?.kind).toBe("filings");
    const filings = trace.source?.kind === "filings" ? trace.source.filings : [];
    expect(filings[0]?.title).toMatch(new RegExp(`^${y}年${Number(m)}月期 決算短信`));
    expect(filings.some((f) => f.kind === "yuho")).toBe(true);
    // One request more than the cell's: the disclosures list, asked once and then cached.
    const added = h.requests().filter((r) => !sentBefore.includes(r));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^\/v1\/securities\/7203\/disclosures/);
    await traceCell(
      cell('=KAISHA.FINANCIAL(7203,"sales",-1)', [7203, "sales", -1, null, null, null]),
      deps(h),
      "en",
    );
    expect(h.requests()).toHaveLength(sentBefore.length + 1);
  });

  test("LTM: the four quarters it sums, whose sum is the cell's value", async () => {
    const h = useSandbox();
    const value = await financial("7203", "sales", "LTM", null, null, null, invocation());
    const trace = await traceCell(
      cell('=KAISHA.FINANCIAL(7203,"sales","LTM")', [7203, "sales", "LTM", null, null, null]),
      deps(h),
      "en",
    );
    expect(trace.period?.quarters).toHaveLength(4);
    expect(trace.period?.label).toMatch(/^LTM to FY/);
    const ltm = trace.qualifiers.find((q) => q.code === "derived_ltm");
    if (ltm?.code !== "derived_ltm") throw new Error("no LTM arithmetic");
    expect(ltm.parts.reduce((s, p) => s + p.value, 0)).toBeCloseTo(value as number, 0);
    expect(trace.apiValue).toBeCloseTo(value as number, 0);
  });

  test("an answer past its freshness: still traced from the store, marked due, with when it was fetched", async () => {
    const h = useSandbox();
    const value = await financial("7203", "sales", -1, null, null, null, invocation());
    const fetchedAt = Date.now();
    // A year on: the answer is due (the next filing windows have opened and closed).
    h.advance(365 * 86_400_000);
    const c = cell('=KAISHA.FINANCIAL(7203,"sales",-1)', [7203, "sales", -1, null, null, null]);
    const sent = h.sent();
    expect(
      (await traceCell(c, { ...deps(h), disclosures: async () => undefined }, "en")).unresolved,
    ).toBe("not_in_memory");
    const trace = await traceCell(
      c,
      { ...deps(h), disclosures: async () => undefined, stored: storedAnswer },
      "en",
    );
    expect(trace.apiValue).toBe(value);
    expect(trace.fetch?.state).toBe("due");
    expect(trace.fetch?.storedAt).toBeGreaterThanOrEqual(fetchedAt - 60_000);
    expect(trace.fetch?.storedAt).toBeLessThanOrEqual(fetchedAt);
    expect(h.sent()).toBe(sent);
  });

  test("nothing in memory: says so and sends nothing", async () => {
    const h = useSandbox();
    const trace = await traceCell(
      cell('=KAISHA.FINANCIAL(7203,"sales")', [7203, "sales", null, null, null, null]),
      deps(h),
      "ja",
    );
    expect(trace.unresolved).toBe("not_in_memory");
    expect(h.sent()).toBe(0);
  });
});

describe("tracing a spill cell and a price", () => {
  test("FINANCIALS items_down: the row's item and the column's period, read from the table's headers", async () => {
    const h = useSandbox();
    const table = (await financials(
      "7203",
      "sales,net_income",
      null,
      3,
      null,
      null,
      null,
      null,
      invocation(),
    )) as unknown[][];
    const trace = await traceCell(
      cell('=KAISHA.FINANCIALS(7203,"sales,net_income",,3)', [7203, "sales,net_income", null, 3], {
        offset: { row: 2, col: 3 },
        spill: table,
      }),
      deps(h),
      "ja",
    );
    expect(trace.item?.key).toBe("net_income");
    expect(trace.period?.fiscal_year).toBe(String(table[0]?.[3]));
    expect(trace.apiValue).toBe(table[2]?.[3]);
  });

  test("PRICE: the latest day's close, by day and the answer's source label", async () => {
    const h = useSandbox();
    const close = await price("7203", null, null, invocation());
    const trace = await traceCell(cell("=KAISHA.PRICE(7203)", [7203, null, null]), deps(h), "en");
    const body = await h.client.prices({ code: "7203", limit: 1 });
    expect(trace.apiValue).toBe(close);
    expect(trace.source).toEqual({
      kind: "price",
      date: body.prices[0]?.date,
      exchange: body.attribution.source_label,
    });
  });
});

describe("tracing a SEGMENTS cell", () => {
  test("a segment's revenue: its period and segment, the API's figure, how the figure was had", async () => {
    const h = useSandbox();
    const table = (await segments("7203", null, null, null, null, invocation())) as unknown[][];
    const header = table[0] ?? [];
    const col = header.indexOf("revenue");
    expect(col).toBeGreaterThan(0);
    const trace = await traceCell(
      cell("=KAISHA.SEGMENTS(7203)", [7203, null, null, null, null], {
        offset: { row: 1, col },
        spill: table,
      }),
      deps(h),
      "en",
    );
    const edinet = h.client.knownCode("edinet_code", "7203") ?? "";
    const body = await h.client.segments({ edinet_code: edinet, period: "annual" });
    const fy = String(table[1]?.[header.indexOf("fiscal_year")]);
    const name = String(table[1]?.[header.indexOf("segment_name")]);
    const row = body.segments.find((x) => x.fiscal_year === fy && x.segment_name === name);
    expect(trace.item?.key).toBe("revenue");
    expect(trace.apiValue).toBe(row?.revenue);
    expect(trace.period?.label).toContain(name);
    expect(trace.qualifiers).toEqual([{ code: "segment_basis", basis: row?.revenue_basis }]);
    expect(trace.request?.endpoint).toBe("GET /segments");
  });
});

describe("qualifiers and filings, pure", () => {
  const row = {
    fiscal_year: "2025/03",
    accounting_standard: "IFRS",
    is_consolidated: true,
    scope_exceptions: ["number_of_employees_parent"],
    standard_exceptions: { "J-GAAP": ["depreciation"] },
  } as unknown as FinancialsPeriod;

  test("scope and standard exceptions, a J-GAAP-only item under IFRS, per-share as reported", () => {
    expect(financialQualifiers(row, "number_of_employees_parent")).toContainEqual({
      code: "scope_exception",
      consolidated: false,
    });
    expect(financialQualifiers(row, "depreciation")).toContainEqual({
      code: "standard_exception",
      standard: "J-GAAP",
      periodStandard: "IFRS",
    });
    expect(financialQualifiers(row, "ordinary_income")).toContainEqual({
      code: "jgaap_only",
      standard: "IFRS",
    });
    expect(financialQualifiers(row, "eps")).toContainEqual({ code: "as_reported_per_share" });
    expect(financialQualifiers(row, "sales").map((q) => q.code)).toEqual([
      "standard",
      "consolidation",
    ]);
  });

  test("a quarter's 短信 and 四半期報告書, a correction marked; other years and kinds not matched", () => {
    const d = (title: string, document_type: string | null, source: "edinet" | "tdnet") =>
      ({
        doc_id: title.slice(0, 8),
        source,
        document_type,
        title,
        filing_date: "2024-08-05",
        disclosed_at: null,
        source_url: null,
        pdf_url: null,
      }) as SecurityDisclosure;
    const list = [
      d("2025年3月期 第1四半期決算短信〔IFRS〕（連結）", null, "tdnet"),
      d("【訂正】2025年3月期 第1四半期決算短信〔IFRS〕（連結）", null, "tdnet"),
      d("四半期報告書－第121期第1四半期(2024年4月1日－2024年6月30日)", "四半期報告書", "edinet"),
      d("2025年3月期 第2四半期決算短信〔IFRS〕（連結）", null, "tdnet"),
      d("2024年3月期 第1四半期決算短信〔IFRS〕（連結）", null, "tdnet"),
      d("臨時報告書", "臨時報告書", "edinet"),
    ];
    const found = matchFilings(list, { fiscal_year: "2025/03", quarter: "Q1" });
    expect(found.map((f) => [f.kind, f.correction])).toEqual([
      ["tanshin", false],
      ["tanshin", true],
      ["quarterly_report", false],
    ]);
    expect(matchFilings(list, { fiscal_year: "2026/03" })).toEqual([]);
  });
});
