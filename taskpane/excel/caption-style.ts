// The look of the source caption under an imported table, one place for the import and a refresh that puts a table back.

/** Italic, in Fluent's secondary text grey: the caption reads as a note, not as data. */
export function styleCaption(cell: Excel.Range): void {
  cell.format.font.italic = true;
  cell.format.font.color = "#605E5C";
}
