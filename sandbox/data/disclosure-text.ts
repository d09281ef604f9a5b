// Japanese HTML text of the sample documents' sections (annual reports, quarterly reports, timely disclosures).
import type { components } from "../../src/contract/generated/api-types";
import type { CompanySpec } from "./companies";
import type { DocPlan } from "./disclosure-plan";
import { Prng } from "./prng";
import { segmentNames } from "./segment-names";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type FinancialsPeriod = components["schemas"]["FinancialsPeriod"];
type Section = components["schemas"]["DisclosureDocumentSection"];

/** Millions of yen with thousands separators (as Japanese filings show amounts). */
function millions(v: number | null): string {
  if (v === null) return "－";
  const m = math.round(v / 1e6);
  const s = String(math.abs(m)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return m < 0 ? `△${s}` : s;
}

function num(v: number | null): string {
  if (v === null) return "－";
  return String(v).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function table(head: string[], rows: string[][]): string {
  const th = head.map((h) => `<th>${h}</th>`).join("");
  const trs = rows.map((r) => `<tr>${r.map((c) => `<td>${c}</td>`).join("")}</tr>`).join("");
  return `<table><thead><tr>${th}</tr></thead><tbody>${trs}</tbody></table>`;
}

const RISKS: [string, string][] = [
  ["経済情勢の変動について", "当社グループの業績は、国内外の景気動向や個人消費の動向の影響を受けます。景気の後退局面においては需要が減少し、当社グループの経営成績及び財政状態に影響を及ぼす可能性があります。"],
  ["為替相場の変動について", "当社グループは海外での事業展開を進めており、外貨建ての取引及び在外子会社の財務諸表の円換算において、為替相場の変動が業績に影響を及ぼす可能性があります。"],
  ["原材料価格の変動について", "原材料及びエネルギー価格が想定を超えて上昇し、販売価格への転嫁が十分に行えない場合には、利益率が低下する可能性があります。"],
  ["法的規制について", "当社グループの事業は各種の法令による規制を受けております。法令の改正又は新たな規制の導入により、事業活動が制約を受ける可能性があります。"],
  ["情報セキュリティについて", "サイバー攻撃等により顧客情報や機密情報の漏えいが発生した場合、社会的信用の低下や損害賠償の発生により業績に影響を及ぼす可能性があります。"],
  ["自然災害等について", "地震、台風、感染症の流行等の発生により、生産拠点やサプライチェーンが被害を受けた場合、操業の停止等により業績に影響を及ぼす可能性があります。"],
  ["人材の確保について", "事業の拡大には優秀な人材の確保と育成が不可欠です。計画どおりに人材を確保できない場合、事業計画の達成に影響を及ぼす可能性があります。"],
]; // prettier-ignore

export interface TextContext {
  plan: DocPlan;
  row: FinancialsPeriod | null;
  prevRow: FinancialsPeriod | null;
  /** Make the governance section longer than Excel's 32,767-character cell limit (and 40,000). */
  long: boolean;
}

function cover(plan: DocPlan): Section {
  const spec = plan.spec;
  const html =
    `<p>【提出書類】${plan.documentType ?? ""}</p><p>【根拠条文】金融商品取引法第24条第1項</p>` +
    `<p>【提出先】関東財務局長</p><p>【提出日】${plan.filingDate.replaceAll("-", "年").replace(/年(\d\d)$/, "月$1日")}</p>` +
    `<p>【会社名】${spec.name.replace("（サンプル）", "株式会社（サンプル）")}</p>` +
    `<p>【英訳名】Sample ${spec.code} Corporation</p><p>【代表者の役職氏名】代表取締役社長\u3000見本\u3000太郎</p>` +
    `<p>【本店の所在の場所】${spec.address}</p><p>※本書はサンプルデータです。実在の企業とは関係ありません。</p>`;
  return { section_id: null, section_title_raw: "【表紙】", html_or_text: html };
}

function businessOverview(spec: CompanySpec): string {
  const segs = segmentNames(spec);
  const subs = 10 + (spec.code.charCodeAt(1) % 9) * 7;
  let html = `<p>当社グループは、当社、子会社${subs}社及び関連会社${math.round(subs / 4)}社で構成され、${segs.join("、")}の各事業を営んでおります。</p>`;
  for (const s of segs) {
    html += `<h4>（${s}）</h4><p>${s}においては、${spec.industry}の分野で製品・サービスの企画、開発、製造及び販売を行っております。主要な関係会社は、見本${s.replace("事業", "")}株式会社（サンプル）であります。</p>`;
  }
  return html + "<p>事業の系統図は次のとおりであります。（図は省略しております）</p>";
}

function employees(spec: CompanySpec, row: FinancialsPeriod | null): string {
  const segs = segmentNames(spec);
  const total = row?.number_of_employees ?? null;
  const rows = segs.map((s, i) => [
    s,
    num(
      total === null
        ? null
        : math.round((total * (segs.length - i)) / ((segs.length * (segs.length + 1)) / 2)),
    ),
  ]);
  return (
    "<h4>(1) 連結会社の状況</h4>" +
    table(["セグメントの名称", "従業員数(人)"], [...rows, ["合計", num(total)]]) +
    "<h4>(2) 提出会社の状況</h4>" +
    table(
      ["従業員数(人)", "平均年齢(歳)", "平均勤続年数(年)", "平均年間給与(円)"],
      [
        [
          num(row?.number_of_employees_parent ?? null),
          String(row?.average_age ?? "－"),
          String(row?.average_years_of_service ?? "－"),
          num(row?.average_annual_salary ?? null),
        ],
      ],
    ) +
    "<p>(注) 平均年間給与は、賞与及び基準外賃金を含んでおります。</p>"
  );
}

function mda(
  spec: CompanySpec,
  row: FinancialsPeriod | null,
  prev: FinancialsPeriod | null,
): string {
  if (!row) return "<p>該当事項はありません。</p>";
  const yoy = (a: number | null, b: number | null): string =>
    a === null || b === null || b === 0 ? "－" : `${((a / b - 1) * 100).toFixed(1)}%`;
  return (
    `<p>当連結会計年度における我が国経済は、緩やかな回復基調が続いた一方、海外経済の減速懸念や物価上昇の影響など、先行き不透明な状況で推移しました。</p>` +
    `<p>このような状況のもと、当社グループの売上高は${millions(row.sales)}百万円（前期比${yoy(row.sales, prev?.sales ?? null)}）、営業利益は${millions(row.operating_profit)}百万円（前期比${yoy(row.operating_profit, prev?.operating_profit ?? null)}）、親会社株主に帰属する当期純利益は${millions(row.net_income)}百万円となりました。</p>` +
    table(
      ["", "前連結会計年度", "当連結会計年度"],
      [
        ["売上高(百万円)", millions(prev?.sales ?? null), millions(row.sales)],
        [
          "営業利益(百万円)",
          millions(prev?.operating_profit ?? null),
          millions(row.operating_profit),
        ],
        ["総資産(百万円)", millions(prev?.total_assets ?? null), millions(row.total_assets)],
        [
          "営業活動によるキャッシュ・フロー(百万円)",
          millions(prev?.operating_cf ?? null),
          millions(row.operating_cf),
        ],
      ],
    ) +
    `<p>${spec.name}は、中期経営計画に基づき、成長分野への投資と資本効率の向上に取り組んでまいります。</p>`
  );
}

function dividendPolicy(row: FinancialsPeriod | null): string {
  const dps = row?.dps ?? null;
  return (
    "<p>当社は、株主の皆様への利益還元を経営の重要課題の一つと位置付け、安定的かつ継続的な配当を基本方針としております。</p>" +
    `<p>当事業年度の剰余金の配当につきましては、1株当たり${dps === null ? "－" : String(dps)}円（うち中間配当${row?.dps_q2 ?? 0}円）といたしました。</p>` +
    "<p>内部留保資金につきましては、今後の成長投資及び財務体質の強化に充当してまいります。</p>"
  );
}

function majorShareholders(spec: CompanySpec, row: FinancialsPeriod | null, rng: Prng): string {
  const holders = [
    "見本マスタートラスト信託銀行株式会社（信託口）（サンプル）",
    "株式会社見本カストディ銀行（信託口）（サンプル）",
    "サンプル生命保険相互会社",
    `${spec.name.replace("（サンプル）", "")}従業員持株会（サンプル）`,
    "STATE STREET BANK AND TRUST COMPANY 505001（SAMPLE）",
    "株式会社見本銀行（サンプル）",
  ];
  const shares = row?.shares_outstanding ?? null;
  let pct = 14 + rng.next() * 6;
  const rows = holders.map((h) => {
    const p = pct;
    pct *= 0.55 + rng.next() * 0.2;
    return [
      h,
      "東京都千代田区見本町1-1",
      shares === null ? "－" : num(math.round((shares * p) / 100 / 1000)),
      p.toFixed(2),
    ];
  });
  return table(
    [
      "氏名又は名称",
      "住所",
      "所有株式数(千株)",
      "発行済株式(自己株式を除く。)の総数に対する所有株式数の割合(%)",
    ],
    rows,
  );
}

function governance(spec: CompanySpec, long: boolean): string {
  const base =
    "<p>当社は、持続的な成長と中長期的な企業価値の向上を図るため、経営の透明性・公正性を確保し、迅速・果断な意思決定を行うことをコーポレート・ガバナンスの基本方針としております。</p>" +
    "<p>当社は監査役会設置会社であり、取締役会は社外取締役を含む取締役で構成され、経営上の重要事項の決定及び業務執行の監督を行っております。</p>";
  if (!long) return base;
  // One very long section: Excel cells hold at most 32,767 characters, so clients must split or truncate.
  let html = base;
  const topics = [
    "取締役会の実効性評価",
    "内部統制システムの整備状況",
    "リスク管理体制の整備状況",
    "子会社の業務の適正を確保するための体制",
    "反社会的勢力排除に向けた基本的な考え方",
    "株主その他の利害関係者に関する施策の実施状況",
    "サステナビリティに関する取組み",
    "政策保有株式に関する方針",
  ];
  let i = 0;
  while (html.length < 46_000) {
    const t = topics[i % topics.length] ?? "";
    html += `<h4>(${i + 1}) ${t}</h4><p>${spec.name}は、${t}について、取締役会において定期的に審議を行い、その結果を踏まえて必要な改善を実施しております。当事業年度においては、外部の専門家の助言を得ながら、各部門へのヒアリングやアンケートを通じて現状を把握し、課題の抽出と対応策の策定を行いました。今後も継続的な見直しにより、実効性の一層の向上に努めてまいります。なお、本項の記載内容は第${i + 1}回の点検結果に基づくものであります。</p>`;
    i += 1;
  }
  return html;
}

function compensation(row: FinancialsPeriod | null): string {
  return table(
    ["役員区分", "報酬等の総額(百万円)", "固定報酬", "業績連動報酬", "非金銭報酬等"],
    [
      [
        "取締役(社外取締役を除く)",
        millions(row?.directors_remuneration ?? null),
        millions(
          row?.directors_remuneration === null || row?.directors_remuneration === undefined
            ? null
            : row.directors_remuneration * 0.6,
        ),
        millions(row?.directors_remuneration == null ? null : row.directors_remuneration * 0.3),
        millions(row?.directors_remuneration == null ? null : row.directors_remuneration * 0.1),
      ],
      [
        "監査役(社外監査役を除く)",
        millions(row?.auditors_remuneration ?? null),
        millions(row?.auditors_remuneration ?? null),
        "－",
        "－",
      ],
      [
        "社外役員",
        millions(row?.outside_officers_remuneration ?? null),
        millions(row?.outside_officers_remuneration ?? null),
        "－",
        "－",
      ],
    ],
  );
}

function history(spec: CompanySpec): string {
  const founded = 1920 + (spec.code.charCodeAt(1) % 10) * 6;
  return table(
    ["年月", "概要"],
    [
      [`${founded}年4月`, `${spec.name.replace("（サンプル）", "")}の前身となる見本商会を創業`],
      [`${founded + 12}年6月`, "株式会社に改組"],
      [`${founded + 30}年10月`, "東京証券取引所に株式を上場"],
      ["2022年4月", `東京証券取引所の市場区分の見直しにより${spec.market ?? "その他"}市場に移行`],
    ],
  );
}

function subsidiaries(spec: CompanySpec): string {
  const segs = segmentNames(spec);
  return table(
    ["名称", "住所", "資本金(百万円)", "主要な事業の内容", "議決権の所有割合(%)"],
    segs.map((s, i) => [
      `見本${s.replace("事業", "")}株式会社（サンプル）`,
      "東京都港区",
      num(100 * (i + 1)),
      s,
      (100 - i * 15).toFixed(1),
    ]),
  );
}

/** Sections of a statutory annual report (有価証券報告書). */
export function annualReportSections(ctx: TextContext): Section[] {
  const { plan, row, prevRow } = ctx;
  const spec = plan.spec;
  const rng = new Prng(`text:${plan.docId}`);
  const modern = plan.filingDate >= "2015-01-01";
  const out: Section[] = [cover(plan)];
  if (modern)
    out.push({
      section_id: "corporate_history",
      section_title_raw: "２【沿革】",
      html_or_text: history(spec),
    });
  out.push({
    section_id: "business_overview",
    section_title_raw: "３【事業の内容】",
    html_or_text: businessOverview(spec),
  });
  if (modern)
    out.push({
      section_id: "subsidiaries",
      section_title_raw: "４【関係会社の状況】",
      html_or_text: subsidiaries(spec),
    });
  out.push({
    section_id: "employees",
    section_title_raw: "５【従業員の状況】",
    html_or_text: employees(spec, row),
  });
  const risks = RISKS.slice(0, modern ? RISKS.length : 4)
    .map(([h, t], i) => `<h4>(${i + 1}) ${h}</h4><p>${t}</p>`)
    .join("");
  out.push({
    section_id: "risk_factors",
    section_title_raw: "３【事業等のリスク】",
    html_or_text: risks,
  });
  out.push({
    section_id: "mda",
    section_title_raw: "４【経営者による財政状態、経営成績及びキャッシュ・フローの状況の分析】",
    html_or_text: mda(spec, row, prevRow),
  });
  out.push({
    section_id: "major_shareholders",
    section_title_raw: "(6)【大株主の状況】",
    html_or_text: majorShareholders(spec, row, rng),
  });
  out.push({
    section_id: "dividend_policy",
    section_title_raw: "３【配当政策】",
    html_or_text: dividendPolicy(row),
  });
  out.push({
    section_id: "corporate_governance",
    section_title_raw: "４【コーポレート・ガバナンスの状況等】",
    html_or_text: governance(spec, ctx.long),
  });
  if (modern) {
    out.push({
      section_id: "compensation",
      section_title_raw: "(4)【役員の報酬等】",
      html_or_text: compensation(row),
    });
    out.push({
      section_id: "audit",
      section_title_raw: "(3)【監査の状況】",
      html_or_text:
        "<p>当社の会計監査人は見本監査法人（サンプル）であり、継続監査期間は15年であります。</p><p>監査役会は、会計監査人の独立性及び専門性を評価し、再任を決議しております。</p>",
    });
  }
  out.push({
    section_id: null,
    section_title_raw: "第５【経理の状況】",
    html_or_text:
      "<p>当社の連結財務諸表は、「連結財務諸表の用語、様式及び作成方法に関する規則」に基づいて作成しております。（財務諸表本体は省略）</p>",
  });
  return out;
}

/** Sections of a quarterly or half-year report. */
export function interimReportSections(ctx: TextContext): Section[] {
  return [
    cover(ctx.plan),
    {
      section_id: "mda",
      section_title_raw: "２【経営者による財政状態、経営成績及びキャッシュ・フローの状況の分析】",
      html_or_text: mda(ctx.plan.spec, ctx.row, ctx.prevRow),
    },
    {
      section_id: "risk_factors",
      section_title_raw: "１【事業等のリスク】",
      html_or_text:
        "<p>当四半期連結累計期間において、前事業年度の有価証券報告書に記載した事業等のリスクについて重要な変更はありません。</p>",
    },
  ];
}

/** Body of a timely disclosure (決算短信 / notice). */
export function timelySections(ctx: TextContext): Section[] {
  const { plan, row } = ctx;
  const spec = plan.spec;
  let body: string;
  if (plan.kind === "notice") {
    const topic = plan.noticeTopic ?? "";
    const text: Record<string, string> = {
      split:
        "<p>当社は、本日開催の取締役会において、株式分割及び株式分割に伴う定款の一部変更について決議いたしましたので、下記のとおりお知らせいたします。</p><p>1. 株式分割の目的\u3000投資単位当たりの金額を引き下げることにより、投資家の皆様がより投資しやすい環境を整え、投資家層の拡大を図ることを目的としております。</p>",
      consolidation:
        "<p>当社は、本日開催の取締役会において、株式併合及び単元株式数の変更について、定時株主総会に付議することを決議いたしましたので、お知らせいたします。</p><p>1. 株式併合の目的\u3000全国証券取引所が公表した売買単位の集約に向けた行動計画に対応し、単元株式数を100株に変更するとともに、投資単位を適切な水準に調整するものであります。</p>",
      buyback:
        "<p>当社は、会社法第165条第3項の規定により読み替えて適用される同法第156条の規定に基づく自己株式の取得状況について、下記のとおりお知らせいたします。</p><p>取得した株式の総数\u30002,150,000株\u3000取得価額の総額\u30006,020,000,000円</p>",
      forecast:
        "<p>最近の業績の動向等を踏まえ、2025年5月に公表した通期の業績予想を下記のとおり修正いたしましたので、お知らせいたします。</p><p>修正の理由\u3000主力事業の受注が想定を上回って推移していることによるものであります。</p>",
      dividend:
        "<p>当社は、本日開催の取締役会において、中間配当を行うことを決議いたしましたので、お知らせいたします。</p>",
      correction:
        "<p>既に公表した決算短信の記載内容の一部に訂正すべき事項がありましたので、下記のとおりお知らせいたします。</p><p>訂正箇所　売上高（訂正前の数値に誤りがありました）</p>",
    };
    body = text[topic] ?? "<p>お知らせ</p>";
  } else {
    body =
      `<h4>1. 経営成績等の概況</h4><p>${spec.name}の当期の売上高は${millions(row?.sales ?? null)}百万円、営業利益は${millions(row?.operating_profit ?? null)}百万円、親会社株主に帰属する当期純利益は${millions(row?.net_income ?? null)}百万円となりました。</p>` +
      "<h4>2. 会計基準の選択に関する基本的な考え方</h4><p>当社グループは、期間比較可能性を考慮し、会計基準を選択しております。</p>";
  }
  const out: Section[] = [
    {
      section_id: "body",
      section_title_raw: plan.title,
      html_or_text: `${body}<p>※本資料はサンプルデータです。</p>`,
    },
  ];
  if (plan.kind !== "notice") {
    out.push({
      section_id: null,
      section_title_raw: "○添付資料の目次",
      html_or_text: "<p>1. 経営成績等の概況 … 2</p><p>2. 連結財務諸表及び主な注記 … 6</p>",
    });
  }
  return out;
}
