// GET /screening/fields (openapi.json getScreeningFields): the metric catalog.
import { attribution } from "../lib/attribution";
import { defineRoute } from "../lib/route";

export const screeningFieldsRoute = defineRoute({
  operationId: "getScreeningFields",
  handle({ state }) {
    return {
      fields: state.dataset().screeningFields.map((field) => ({ ...field })),
      attribution: attribution(),
    };
  },
});
