// `fields[]` of a response, from the contract's field dictionary (openapi.json FieldUnit).
import { FIELD_DICTIONARY } from "../../src/contract/generated/fields";
import type { Dataset } from "../../src/contract/rules";

/** A FieldUnit entry. */
export interface FieldUnitBody {
  key: string;
  label: string;
  unit: string;
}

/** The `fields[]` of a dataset, in schema order (fresh objects: handlers may not share them). */
export function fieldsOf(dataset: Dataset): FieldUnitBody[] {
  return FIELD_DICTIONARY[dataset].map(({ key, label, unit }) => ({ key, label, unit }));
}
