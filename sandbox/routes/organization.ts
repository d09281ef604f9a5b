// GET /organizations/{edinet_code} (openapi.json getOrganization): basic data of a listed
// corporation.
import { attribution } from "../lib/attribution";
import { listedCorporation } from "../lib/lookup";
import { defineRoute } from "../lib/route";

export const organizationRoute = defineRoute({
  operationId: "getOrganization",
  handle({ state, params }) {
    const corporation = listedCorporation(state.dataset(), params.reqStr("edinet_code"));
    return {
      edinet_code: corporation.edinet_code,
      name_ja: corporation.name_ja,
      address_ja: corporation.address_ja,
      // openapi.json Organization: currently only the primary security.
      listed_security_codes: corporation.primary_code === null ? [] : [corporation.primary_code],
      attribution: attribution(),
    };
  },
});
