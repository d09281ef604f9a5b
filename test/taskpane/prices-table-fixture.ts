// The imported table of the write-table tests: daily prices (date, close, volume) shaped as the pane shapes them.

import { shapeTable, type TableData } from "../../taskpane/state/table-data";

export const attribution = {
  source_label: "IRBANK",
  license_note: "再配布は規約に従う",
  processed_by: "Kaisha",
};

/** `rows` daily prices, closes counting up from `first` (3 columns: 5,000 rows per block). */
export function pricesTable(rows: number, first = 1000): TableData {
  const data = Array.from({ length: rows }, (_, i) => ({
    date: `2026-01-${String((i % 28) + 1).padStart(2, "0")}`,
    close: first + i,
    volume: 5000,
  }));
  return shapeTable(
    data,
    [
      { key: "close", label: "終値", unit: "jpy" },
      { key: "volume", label: "出来高", unit: "shares" },
    ],
    attribution,
    { lang: "ja", scale: "jpy", headers: "ja" },
  );
}
