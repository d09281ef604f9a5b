// An item's behaviour under LTM (last twelve months), from the contract's field dictionary.
import { FIELD_DICTIONARY } from "../contract";

// openapi.json FinancialsPeriod `x-ltm-kind`: flows add up over quarters, stocks are read at the
// latest balance; the generated field dictionary carries it for every item.
const LTM_KINDS: ReadonlyMap<string, "flow" | "stock"> = new Map(
  FIELD_DICTIONARY.financials.flatMap((f) =>
    f.ltm === "flow" || f.ltm === "stock" ? [[f.key, f.ltm] as const] : [],
  ),
);

/** How an item behaves under LTM, or undefined when it has no LTM meaning (ratios, ESG, ...). */
export function ltmKind(item: string): "flow" | "stock" | undefined {
  return LTM_KINDS.get(item);
}
