// Resolving identifiers to dataset records with the spec's 404 rules (openapi.json
// info.description, NotFound).
import type { CorporationRecord, Dataset, DisclosureRecord, SecurityRecord } from "../data/model";
import { ApiError } from "./api-error";

interface Indexes {
  securities: Map<string, SecurityRecord>;
  disclosuresByCode: Map<string, DisclosureRecord[]>;
  disclosuresById: Map<string, DisclosureRecord>;
}

const indexCache = new WeakMap<Dataset, Indexes>();

/** Lookup tables built once per dataset. */
export function indexes(dataset: Dataset): Indexes {
  let built = indexCache.get(dataset);
  if (built === undefined) {
    const disclosuresByCode = new Map<string, DisclosureRecord[]>();
    const disclosuresById = new Map<string, DisclosureRecord>();
    for (const record of dataset.disclosures) {
      const list = disclosuresByCode.get(record.security_code) ?? [];
      list.push(record);
      disclosuresByCode.set(record.security_code, list);
      disclosuresById.set(record.item.doc_id, record);
    }
    built = {
      securities: new Map(dataset.securities.map((s) => [s.code, s])),
      disclosuresByCode,
      disclosuresById,
    };
    indexCache.set(dataset, built);
  }
  return built;
}

/**
 * openapi.json info.description: codes match ^[0-9A-Z]{4,5}$ and responses give 4 characters. A
 * 5-character code is the 4-character code plus the exchange's trailing check digit `0`.
 */
function normalizeCode(code: string): string {
  return code.length === 5 && code.endsWith("0") ? code.slice(0, 4) : code;
}

/** The security for a code, or 404 `not_found`. */
export function findSecurity(dataset: Dataset, code: string): SecurityRecord {
  const security = indexes(dataset).securities.get(normalizeCode(code));
  if (security === undefined) throw ApiError.notFound(`Security ${code} was not found.`);
  return security;
}

/**
 * The corporation a security code resolves to: 404 when the security is unknown, is not the
 * corporation's primary listed security (openapi.json info.description), or has no statutory filer.
 */
export function corporationOfSecurity(
  dataset: Dataset,
  code: string,
): { security: SecurityRecord; corporation: CorporationRecord } {
  const security = findSecurity(dataset, code);
  if (!security.is_primary) {
    throw ApiError.notFound(
      `Security ${security.code} is not the primary listed security of its corporation; use the main share class.`,
    );
  }
  const corporation =
    security.edinet_code === null ? undefined : dataset.corporations.get(security.edinet_code);
  if (corporation === undefined) {
    throw ApiError.notFound(
      `Security ${security.code} has no statutory-disclosure filer (for example an ETF).`,
    );
  }
  return { security, corporation };
}

/** A listed corporation by EDINET code: 404 when unknown or not listed. */
export function listedCorporation(dataset: Dataset, edinetCode: string): CorporationRecord {
  const corporation = dataset.corporations.get(edinetCode);
  if (corporation === undefined) {
    throw ApiError.notFound(`Corporation ${edinetCode} was not found.`);
  }
  if (corporation.primary_code === null) {
    throw ApiError.notFound(`Corporation ${edinetCode} is not listed.`);
  }
  return corporation;
}

/** A disclosure document by id, or 404. */
export function findDisclosure(dataset: Dataset, docId: string): DisclosureRecord {
  const record = indexes(dataset).disclosuresById.get(docId);
  if (record === undefined) throw ApiError.notFound(`Document ${docId} was not found.`);
  return record;
}
