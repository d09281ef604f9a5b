// Competitors of each sample company (openapi.json PeersResponse, getPeers): ascending by code,
// requester excluded, a non-listed competitor replaced by its listed parent, parent companies by
// voting rights, capital_relationship null.
import type { components } from "../../src/contract/generated/api-types";
import { sectorOf, type CompanySpec } from "./companies";
import { segmentNames } from "./segment-names";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type S = components["schemas"];
type PeerCompany = S["PeerCompany"];
type PeerParentCompany = S["PeerParentCompany"];

/** Voting-rights holders disclosed in each company's annual report, descending by ratio. */
const PARENT_COMPANIES: Record<string, PeerParentCompany[]> = {
  "6367": [{ name: "日本総合電機株式会社（サンプル）", security_code: "6501", party_type: "親会社", voting_rights_ratio: 51.2, fiscal_period_end: "2026-03-31" }],
  "9433": [
    { name: "大和自動車株式会社（サンプル）", security_code: "7203", party_type: "その他の関係会社", voting_rights_ratio: 14.1, fiscal_period_end: "2026-03-31" },
    { name: "日本テレコム通信株式会社（サンプル）", security_code: "9432", party_type: "その他の関係会社", voting_rights_ratio: 12.5, fiscal_period_end: "2026-03-31" },
  ],
  "7269": [{ name: "大和自動車株式会社（サンプル）", security_code: "7203", party_type: "その他の関係会社", voting_rights_ratio: 20.0, fiscal_period_end: "2026-03-31" }],
  "3289": [{ name: "Sample Global Holdings Inc.", security_code: null, party_type: "親会社", voting_rights_ratio: 62.3, fiscal_period_end: "2026-03-31" }],
  "4568": [{ name: "Sample Pharma AG", security_code: null, party_type: "親会社", voting_rights_ratio: 59.9, fiscal_period_end: "2026-03-31" }],
  "9301": [{ name: "瑞穂海運株式会社（サンプル）", security_code: "9101", party_type: null, voting_rights_ratio: null, fiscal_period_end: "2026-03-31" }],
}; // prettier-ignore

/**
 * Non-listed competitors replaced by their nearest listed parent (openapi.json getPeers): the
 * replacement's name and industry are shown, while segments and reason describe the original
 * company.
 */
const REPLACED: Record<string, { parentCode: string; segment: string; reason: string }[]> = {
  "8058": [
    {
      parentCode: "7203",
      segment: "生活消費",
      reason:
        "自動車の輸入・卸売事業で競合する販売会社。全国のディーラー網を通じた法人向け販売で重なる。",
    },
  ],
};

/** Companies without a competitor analysis, or whose competitors are all non-listed without a listed parent. */
const NO_PEERS = new Set(["130A", "5964"]);

function reason(requester: CompanySpec, peer: CompanySpec, segment: string): string {
  if (peer.industry === requester.industry) {
    return `${segment}において同じ${requester.industry}の主要企業として、製品・サービスの価格と品質で競合する。`;
  }
  return `${segment}の周辺領域で顧客層が重なり、${peer.industry}の立場から代替的なサービスを提供している。`;
}

export function generatePeers(specs: readonly CompanySpec[]): Map<string, PeerCompany[]> {
  const map = new Map<string, PeerCompany[]>();
  const byCode = new Map(specs.map((s) => [s.code, s]));
  const parentsOf = (code: string): PeerParentCompany[] => PARENT_COMPANIES[code] ?? [];
  for (const spec of specs) {
    if (spec.industry === "REIT") continue;
    if (NO_PEERS.has(spec.code)) {
      map.set(spec.code, []);
      continue;
    }
    const segs = segmentNames(spec);
    const same = specs.filter(
      (s) => s.code !== spec.code && s.industry === spec.industry && s.industry !== "REIT",
    );
    const sector = sectorOf(spec.industry);
    const sectorPeers = specs.filter(
      (s) =>
        s.code !== spec.code && s.industry !== spec.industry && sectorOf(s.industry) === sector,
    );
    const limit = spec.market === "Prime" ? 10 : 4;
    const chosen = [...same, ...sectorPeers].slice(0, math.max(limit, same.length));
    const peers: PeerCompany[] = chosen.map((p, i) => {
      const seg = segs[i % segs.length] ?? segs[0] ?? "";
      const segments =
        p.industry === spec.industry && segs.length > 1 && i % 2 === 0 ? segs.slice(0, 2) : [seg];
      return {
        security_code: p.code,
        name: p.name,
        industry: p.industry,
        segments,
        competition_reason: i % 5 === 4 ? null : reason(spec, p, seg),
        capital_relationship: null,
        parent_companies: parentsOf(p.code),
      };
    });
    for (const r of REPLACED[spec.code] ?? []) {
      const parent = byCode.get(r.parentCode);
      if (!parent || peers.some((p) => p.security_code === parent.code)) continue;
      peers.push({
        security_code: parent.code,
        name: parent.name,
        industry: parent.industry,
        segments: [r.segment],
        competition_reason: r.reason,
        capital_relationship: null,
        parent_companies: parentsOf(parent.code),
      });
    }
    peers.sort((a, b) => (a.security_code < b.security_code ? -1 : 1));
    map.set(spec.code, peers);
  }
  return map;
}
