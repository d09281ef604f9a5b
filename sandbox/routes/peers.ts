// GET /peers (openapi.json getPeers): competitors ascending by code, requester excluded, first
// `limit`.
import { attribution } from "../lib/attribution";
import { reasonFor } from "../lib/empty-reason";
import { findSecurity } from "../lib/lookup";
import { defineRoute } from "../lib/route";

export const peersRoute = defineRoute({
  operationId: "getPeers",
  handle({ state, params }) {
    const dataset = state.dataset();
    const security = findSecurity(dataset, params.reqStr("security_code"));
    // openapi.json getPeers: sorted by code, requester excluded, first `limit`; no paging.
    const peers = (dataset.peers.get(security.code) ?? [])
      .filter((peer) => peer.security_code !== security.code)
      .sort((a, b) => a.security_code.localeCompare(b.security_code))
      .slice(0, params.reqNum("limit"));
    return {
      security_code: security.code,
      peers,
      reason: reasonFor(peers.length, "No competitor analysis exists for this security."),
      attribution: attribution(),
    };
  },
});
