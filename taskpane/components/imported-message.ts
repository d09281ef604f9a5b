// The success message after a table was written to the sheet, shared by imports and screening.

import type { TaskMessage } from "../hooks/use-task";
import type { Translator } from "../i18n/messages";
import { writtenAddress, type WrittenTable } from "../excel/write-table";

/** "N rows imported into table T (Sheet!A1:…)", with the row count and table name as test data. */
export function importedMessage(t: Translator, written: WrittenTable): TaskMessage {
  return {
    intent: "success",
    text: t("imported", {
      rows: written.rows,
      table: written.name,
      address: writtenAddress(written),
    }),
    data: { rows: String(written.rows), table: written.name },
  };
}
