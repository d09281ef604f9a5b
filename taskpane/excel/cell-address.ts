// A cell address as the custom functions runtime reports it ("'Sheet 1'!B2"), split into its sheet and its cell.

/** "'Sheet 1'!B2" -> ["Sheet 1", "B2"]; undefined for an address without a sheet. */
export function splitAddress(address: string): [string, string] | undefined {
  const bang = address.lastIndexOf("!");
  if (bang <= 0) return undefined;
  let sheet = address.slice(0, bang);
  if (sheet.startsWith("'") && sheet.endsWith("'")) sheet = sheet.slice(1, -1).replace(/''/g, "'");
  return [sheet, address.slice(bang + 1)];
}
