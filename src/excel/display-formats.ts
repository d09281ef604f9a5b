// The date formats every cell the add-in writes shares (functions, imported tables, the sheets).

/**
 * Japanese analysts' convention: dates as 2024/03/31 (the order of Japanese reports and of
 * Excel's ja-JP short date), date-times with the minute. Functions' date cells
 * (values.ts dateCell), imported tables (taskpane/state/table-data.ts) and the company sheet all
 * show a date so.
 */
export const DISPLAY_FORMATS = {
  date: "yyyy/mm/dd",
  dateTime: "yyyy/mm/dd hh:mm",
} as const;
