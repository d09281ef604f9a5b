// The route table: one entry per contract operation (openapi.json operationIds).
import type { RouteDef } from "../lib/route";
import { disclosureRoute } from "./disclosure";
import { disclosureSectionRoute } from "./disclosure-section";
import { dividendsRoute } from "./dividends";
import { financialsRoute } from "./financials";
import { jsfMarginDailyRoute } from "./jsf-margin-daily";
import { officersRoute } from "./officers";
import { organizationRoute } from "./organization";
import { peersRoute } from "./peers";
import { personAppointmentsRoute, personCompensationRoute, personRoute } from "./persons";
import { pricesRoute } from "./prices";
import { rankingsRoute } from "./rankings";
import { screeningRoute } from "./screening";
import { screeningFieldsRoute } from "./screening-fields";
import { securitiesRoute } from "./securities";
import { securityDisclosuresRoute } from "./security-disclosures";
import { segmentsRoute } from "./segments";
import { usageRoute } from "./usage";
import { valuationsRoute } from "./valuations";
import { weeklyMarginRoute } from "./weekly-margin";

/** Registered in this order; /screening/fields before nothing that could shadow it. */
export const ROUTES: readonly RouteDef[] = [
  screeningRoute,
  screeningFieldsRoute,
  usageRoute,
  securitiesRoute,
  pricesRoute,
  rankingsRoute,
  valuationsRoute,
  financialsRoute,
  segmentsRoute,
  dividendsRoute,
  organizationRoute,
  peersRoute,
  securityDisclosuresRoute,
  disclosureRoute,
  disclosureSectionRoute,
  officersRoute,
  personRoute,
  personAppointmentsRoute,
  personCompensationRoute,
  weeklyMarginRoute,
  jsfMarginDailyRoute,
];
