// GET /screening/fields (spec 4.2): the metric catalog.
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
