// Groups an update's changed cells by what brought them: a new period's results, a restatement of
// a period already published (its 訂正 filing where the disclosures list names one), a new price
// day, or a change the replaced answers do not explain.

import type { CellTrace } from "../trace/trace-model";
import type { CompanyMoves } from "./answer-changes";
import type { ChangeGroup, ChangedCell, ChangeKind, LoggedCell } from "./change-diff";

function periodKeyOf(t: CellTrace): string | undefined {
  const p = t.period;
  if (p?.fiscal_year === undefined) return undefined;
  return p.quarter && p.quarter !== "full_year" ? `${p.fiscal_year} ${p.quarter}` : p.fiscal_year;
}

/** What brought one cell's change, and the period or day that names it. */
function kindOf(
  t: CellTrace | undefined,
  moves: ReadonlyMap<string, CompanyMoves>,
): { kind: ChangeKind; company?: string; label?: string } {
  const company = t?.company?.code ?? t?.company?.edinet;
  if (t === undefined || company === undefined) return { kind: "changed" };
  const m = moves.get(company) ?? (t.company?.edinet ? moves.get(t.company.edinet) : undefined);
  if (t.source?.kind === "price")
    return m?.newPriceDay !== undefined
      ? { kind: "new_price_day", company, label: m.newPriceDay }
      : { kind: "changed", company };
  const key = periodKeyOf(t);
  if (m !== undefined && key !== undefined && m.restated.some((r) => r.period === key))
    return { kind: "restatement", company, label: key };
  const latest = m?.newPeriods[m.newPeriods.length - 1];
  if (latest !== undefined) return { kind: "new_period", company, label: latest };
  if (m !== undefined && m.restated.length > 0)
    return { kind: "restatement", company, label: m.restated[0]?.period ?? "" };
  return { kind: "changed", company };
}

/** The filing a group names: a correction for a restatement, else the period's first filing. */
function filingOf(t: CellTrace | undefined, kind: ChangeKind): ChangeGroup["filing"] {
  if (t?.source?.kind !== "filings") return undefined;
  const list = t.source.filings;
  const f = kind === "restatement" ? (list.find((x) => x.correction) ?? list[0]) : list[0];
  if (f === undefined) return undefined;
  return {
    doc_id: f.doc_id,
    title: f.title,
    date: f.date,
    correction: f.correction,
    ...(f.url ? { url: f.url } : {}),
  };
}

/**
 * The update's groups, restatements first (the change an analyst must not miss), then new
 * periods, price days and unexplained changes; `traceOf` gives a changed cell's trace (after the
 * update), undefined where it could not be traced.
 */
export function groupChanges(
  changed: readonly ChangedCell[],
  traceOf: (c: ChangedCell) => CellTrace | undefined,
  moves: ReadonlyMap<string, CompanyMoves>,
): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  for (const c of changed) {
    const t = traceOf(c);
    const { kind, company, label } = kindOf(t, moves);
    const id = `${kind}|${company ?? ""}|${label ?? ""}`;
    let g = groups.get(id);
    if (g === undefined) {
      const filing = filingOf(t, kind);
      g = {
        kind,
        ...(company !== undefined ? { company } : {}),
        ...(label !== undefined ? { label } : {}),
        ...(filing !== undefined ? { filing } : {}),
        cells: [],
      };
      groups.set(id, g);
    } else if (g.filing === undefined) {
      const filing = filingOf(t, kind);
      if (filing !== undefined) g.filing = filing;
    }
    const cell: LoggedCell = {
      sheet: c.sheet,
      address: c.address,
      ...(t?.item ? { item: t.item.label } : {}),
      ...(t?.period ? { period: t.period.label } : {}),
      old: c.old,
      new: c.new,
      ...(c.pct !== undefined ? { pct: c.pct } : {}),
    };
    g.cells.push(cell);
  }
  const order: ChangeKind[] = ["restatement", "new_period", "new_price_day", "changed"];
  return [...groups.values()].sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
}
