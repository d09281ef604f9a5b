// GET /securities/{code}/officers (openapi.json getOfficers): current, then nominees, then retired
// officers.
import { attribution } from "../lib/attribution";
import { reasonFor } from "../lib/empty-reason";
import { findSecurity } from "../lib/lookup";
import { defineRoute } from "../lib/route";

/**
 * openapi.json getOfficers: current first, then next-term nominees, then retired (stable within a
 * group).
 */
function group(officer: { is_current: boolean; is_next_term_nominee: boolean }): number {
  if (officer.is_current) return 0;
  return officer.is_next_term_nominee ? 1 : 2;
}

export const officersRoute = defineRoute({
  operationId: "getOfficers",
  handle({ state, params }) {
    const dataset = state.dataset();
    const security = findSecurity(dataset, params.reqStr("code"));
    const officers = [...(dataset.officers.get(security.code) ?? [])].sort(
      (a, b) => group(a) - group(b),
    );
    return {
      security_code: security.code,
      officers,
      reason: reasonFor(officers.length, "No officer data for this security."),
      attribution: attribution(),
    };
  },
});
