// Officers of each sample company (current, next-term nominees, retired; openapi.json
// SecurityOfficer, getOfficers) and the persons behind them: appointment histories across companies
// and compensation above 100 million yen.
import type { components } from "../../src/contract/generated/api-types";
import { addDays, monthEnd, nextTradingDay, wholeYears } from "./calendar";
import type { CompanySpec } from "./companies";
import { DATA_DATE } from "./fiscal-periods";
import type { PersonRecord } from "./model";
import { Prng } from "./prng";

// Module-local alias: global lookups are slow inside vm contexts (jest builds the dataset there).
const math = Math;

type S = components["schemas"];
type SecurityOfficer = S["SecurityOfficer"];
type PositionHistoryEntry = S["PositionHistoryEntry"];

const SURNAMES = ["佐藤", "鈴木", "高橋", "田中", "伊藤", "渡辺", "山本", "中村", "小林", "加藤", "吉田", "山田", "佐々木", "山口", "松本", "井上", "木村", "林", "斎藤", "清水", "山崎", "森", "池田", "橋本", "阿部", "石川", "山下", "中島", "石井", "小川", "前田", "岡田", "長谷川", "藤田", "後藤", "近藤"]; // prettier-ignore
const GIVEN = ["健一", "誠", "浩二", "直樹", "隆", "博之", "和也", "聡", "洋子", "由美", "恵子", "真理子", "大輔", "剛", "修", "明美", "智子", "孝", "勝彦", "裕子", "正人", "美穂", "哲也", "弘"]; // prettier-ignore

interface Stint {
  code: string;
  companyName: string;
  isOutside: boolean;
  history: PositionHistoryEntry[];
  /** Listing order inside the company's report. */
  order: number;
  nominee?: { listedOn: string };
}

interface PersonDraft {
  id: string;
  name: string;
  birth: string | null;
  stints: Stint[];
  comp: Map<string, S["CompensationHistoryEntry"][]>;
}

/** The annual general meeting date for fiscal years ending in `month` of `year` (about 3 months later). */
function agmDate(year: number, month: number): string {
  const end = monthEnd(year, month);
  return nextTradingDay(addDays(end, 84));
}

function entry(
  role: string | null,
  position: string | null,
  from: string,
  to: string | null,
): PositionHistoryEntry {
  return { role, position, valid_from: from, valid_to: to, is_active: to === null };
}

export interface OfficersResult {
  officers: Map<string, SecurityOfficer[]>;
  persons: Map<string, PersonRecord>;
}

/** Companies that have announced next-term director nominees (disclosure date = first_valid_from). */
const NOMINEES: Record<string, string> = {
  "3697": "2026-11-13",
  "9279": "2026-11-18",
  "2975": "2026-11-06",
  "7203": "2026-11-12",
  "6098": "2026-11-10",
};

export function generateOfficers(specs: readonly CompanySpec[]): OfficersResult {
  const rng = new Prng("officers");
  const people: PersonDraft[] = [];
  let nextId = 1000001;
  const usedNames = new Set<string>();
  const newPerson = (birthYear: number | null): PersonDraft => {
    let name = "";
    do {
      name = `${rng.pick(SURNAMES)}\u3000${rng.pick(GIVEN)}`;
    } while (usedNames.has(name));
    usedNames.add(name);
    const birth =
      birthYear === null
        ? null
        : `${birthYear}-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}`;
    const p: PersonDraft = { id: String(nextId), name, birth, stints: [], comp: new Map() };
    nextId += 1;
    people.push(p);
    return p;
  };
  // Professional outside directors who sit on several boards.
  const outsidePool = Array.from({ length: 24 }, (_, i) =>
    newPerson(i % 5 === 0 ? null : rng.int(1950, 1968)),
  );
  let poolCursor = 0;
  // A professional manager: president of one company until 2018, then of another from 2019.
  const proManager = newPerson(1958);

  const companies = specs.filter((s) => s.industry !== "REIT");
  for (const spec of companies) {
    const fy = spec.fyMonth;
    const agm = (y: number): string => agmDate(y, fy);
    const since = math.max(2005, Number(spec.listedFrom.slice(0, 4)) - 2);
    const clamp = (y: number): number => math.max(since, y);
    let order = 0;
    const stint = (
      p: PersonDraft,
      isOutside: boolean,
      history: PositionHistoryEntry[],
      nominee?: { listedOn: string },
    ): void => {
      const s: Stint = {
        code: spec.code,
        companyName: spec.name,
        isOutside,
        history,
        order: order++,
      };
      if (nominee) s.nominee = nominee;
      p.stints.push(s);
    };
    const y0 = 2010 + (spec.code.charCodeAt(1) % 6);
    // Chair: former president.
    const chair = newPerson(rng.int(1948, 1956));
    stint(chair, false, [
      entry("取締役", "代表取締役社長", agm(clamp(y0 - 6)), agm(clamp(y0 + 4))),
      entry("取締役", "取締役会長", agm(clamp(y0 + 4)), null),
    ]);
    // President.
    const usesPro = spec.code === "9064";
    const president = usesPro ? proManager : newPerson(rng.int(1958, 1968));
    if (usesPro) {
      stint(president, false, [entry("取締役", "代表取締役社長", agm(2019), null)]);
    } else {
      stint(president, false, [
        entry("取締役", "取締役 常務執行役員", agm(clamp(y0 - 2)), agm(clamp(y0 + 4))),
        entry("取締役", "代表取締役社長", agm(clamp(y0 + 4)), null),
      ]);
    }
    const directors = ["取締役 専務執行役員", "取締役 常務執行役員 CFO", "取締役 執行役員"];
    for (const [i, pos] of directors.slice(0, spec.salesOku > 1000 ? 3 : 1).entries()) {
      const d = newPerson(rng.int(1960, 1972));
      stint(d, false, [
        entry("取締役", pos, agm(clamp(2016 + i * 2 + (spec.code.charCodeAt(2) % 3))), null),
      ]);
    }
    // Outside directors (some shared with other companies).
    const outsideCount = spec.market === "Prime" ? 3 : 2;
    for (let i = 0; i < outsideCount; i += 1) {
      const p = outsidePool[poolCursor % outsidePool.length] as PersonDraft;
      poolCursor += 1;
      const from = agm(clamp(2015 + ((poolCursor * 3) % 9)));
      stint(p, true, [entry("取締役", "社外取締役", from, null)]);
    }
    // Auditors.
    const aud = newPerson(rng.int(1958, 1966));
    stint(aud, false, [
      entry("監査役", "常勤監査役", agm(clamp(2018 + (spec.code.charCodeAt(3) % 5))), null),
    ]);
    const outsideAud = newPerson(rng.chance(0.3) ? null : rng.int(1955, 1970));
    stint(outsideAud, true, [
      entry("監査役", "社外監査役", agm(clamp(2017 + (spec.code.charCodeAt(0) % 6))), null),
    ]);
    // Retired officers.
    const retired = newPerson(rng.int(1940, 1950));
    stint(retired, false, [
      entry("取締役", "代表取締役社長", agm(clamp(y0 - 12)), agm(clamp(y0 - 6))),
      entry("取締役", "取締役相談役", agm(clamp(y0 - 6)), agm(clamp(y0 - 3))),
    ]);
    if (spec.code === "8058") {
      // The professional manager ran this company before moving on.
      stint(proManager, false, [entry("取締役", "代表取締役社長", agm(2011), agm(2018))]);
    }
    const retiredOutside = outsidePool[(poolCursor + 7) % outsidePool.length] as PersonDraft;
    if (!retiredOutside.stints.some((s) => s.code === spec.code)) {
      stint(retiredOutside, true, [
        entry("取締役", "社外取締役", agm(clamp(2012)), agm(clamp(2016))),
      ]);
    }
    const nomineeDate = NOMINEES[spec.code];
    if (nomineeDate) {
      const n1 = newPerson(rng.int(1965, 1975));
      stint(n1, false, [], { listedOn: nomineeDate });
      const n2 = outsidePool[(poolCursor + 3) % outsidePool.length] as PersonDraft;
      if (!n2.stints.some((s) => s.code === spec.code))
        stint(n2, true, [], { listedOn: nomineeDate });
    }
    // Compensation above 100 million yen (openapi.json PersonCompensationResponse) for top
    // executives of large companies.
    if (spec.salesOku >= 20000 || usesPro) {
      for (const [p, scale] of [
        [president, 1.6],
        [chair, 1.2],
      ] as const) {
        const s = p.stints.find((x) => x.code === spec.code);
        if (!s) continue;
        const from = s.history[0]?.valid_from ?? "2010-01-01";
        const list: S["CompensationHistoryEntry"][] = [];
        for (let y = 2010; y <= 2026; y += 1) {
          const end = monthEnd(y, fy);
          if (end < from || addDays(end, 90) > DATA_DATE) continue;
          const total =
            math.round(
              (1.05e8 + scale * 1.5e8 * (1 + (y - 2010) * 0.06) * (0.9 + rng.next() * 0.2)) / 1e6,
            ) * 1e6;
          const broken = y >= 2016;
          const fixed = broken ? math.round((total * 0.45) / 1e6) * 1e6 : null;
          const stock = broken ? math.round((total * 0.2) / 1e6) * 1e6 : null;
          const perf = broken && fixed !== null && stock !== null ? total - fixed - stock : null;
          list.push({
            fiscal_period_end: end,
            total_comp: total,
            fixed_comp: fixed,
            performance_comp: perf,
            stock_comp: stock,
          });
        }
        if (list.length > 0) p.comp.set(spec.code, list);
      }
    }
  }
  // The professional manager's compensation at the first company too.
  const first = proManager.stints.find((s) => s.code === "8058");
  if (first) {
    const list: S["CompensationHistoryEntry"][] = [];
    for (let y = 2012; y <= 2018; y += 1) {
      list.push({
        fiscal_period_end: monthEnd(y, 3),
        total_comp: 1.38e8 + (y - 2012) * 6e6,
        fixed_comp: y >= 2016 ? 7.2e7 : null,
        performance_comp: y >= 2016 ? 4.8e7 + (y - 2016) * 6e6 : null,
        stock_comp: y >= 2016 ? 1.8e7 + (y - 2012) * 6e6 - (y - 2016) * 6e6 : null,
      });
    }
    const fix = list.map((e) =>
      e.fixed_comp === null
        ? e
        : {
            ...e,
            stock_comp: (e.total_comp ?? 0) - (e.fixed_comp ?? 0) - (e.performance_comp ?? 0),
          },
    );
    proManager.comp.set("8058", fix);
  }
  return assemble(people, companies);
}

function assemble(people: PersonDraft[], companies: readonly CompanySpec[]): OfficersResult {
  const officers = new Map<string, SecurityOfficer[]>();
  const rows = new Map<string, { officer: SecurityOfficer; group: number; order: number }[]>();
  const persons = new Map<string, PersonRecord>();
  for (const p of people) {
    const appointments: S["PersonAppointment"][] = [];
    const current: S["PersonCurrentAppointment"][] = [];
    for (const s of p.stints) {
      let officer: SecurityOfficer;
      let group: number;
      if (s.nominee) {
        officer = {
          person_id: p.id, name: p.name, role: "取締役", position: s.isOutside ? "社外取締役候補者" : "取締役候補者",
          is_outside: s.isOutside, is_current: false, is_next_term_nominee: true,
          first_valid_from: s.nominee.listedOn, last_valid_to: null, tenure_years: 0,
        }; // prettier-ignore
        group = 1;
      } else {
        const firstEntry = s.history[0];
        const lastEntry = s.history[s.history.length - 1];
        if (!firstEntry || !lastEntry) continue;
        const isCurrent = lastEntry.valid_to === null;
        const tenure = wholeYears(firstEntry.valid_from, lastEntry.valid_to ?? DATA_DATE);
        officer = {
          person_id: p.id, name: p.name, role: lastEntry.role, position: lastEntry.position,
          is_outside: s.isOutside, is_current: isCurrent, is_next_term_nominee: false,
          first_valid_from: firstEntry.valid_from, last_valid_to: lastEntry.valid_to, tenure_years: tenure,
        }; // prettier-ignore
        group = isCurrent ? 0 : 2;
        appointments.push({
          security_code: s.code, security_name: s.companyName, latest_role: lastEntry.role,
          latest_position: lastEntry.position, is_outside: s.isOutside, is_current: isCurrent,
          first_valid_from: firstEntry.valid_from, last_valid_to: lastEntry.valid_to, tenure_years: tenure,
          position_history: s.history,
        }); // prettier-ignore
        if (isCurrent) {
          current.push({
            security_code: s.code, security_name: s.companyName, role: lastEntry.role,
            position: lastEntry.position, is_outside: s.isOutside, first_valid_from: firstEntry.valid_from,
            tenure_years: tenure,
          }); // prettier-ignore
        }
      }
      rows.set(s.code, [...(rows.get(s.code) ?? []), { officer, group, order: s.order }]);
    }
    // openapi.json getPersonAppointments: current first, then by tenure_years descending.
    appointments.sort((a, b) =>
      a.is_current !== b.is_current ? (a.is_current ? -1 : 1) : b.tenure_years - a.tenure_years,
    );
    const compensation: S["PersonCompanyCompensation"][] = [...p.comp.entries()].map(
      ([code, history]) => ({
        security_code: code,
        company_name: companies.find((c) => c.code === code)?.name ?? code,
        history,
      }),
    );
    persons.set(p.id, {
      person_id: p.id,
      name: p.name,
      birth_date: p.birth,
      current_appointments: current,
      appointments,
      compensation,
    });
  }
  for (const [code, list] of rows) {
    // openapi.json getOfficers: current, then next-term nominees, then retired; report listing
    // order within each.
    list.sort((a, b) => a.group - b.group || a.order - b.order);
    officers.set(
      code,
      list.map((r) => r.officer),
    );
  }
  return { officers, persons };
}
