// Small line icons of the pane's sections (inline SVG: no icon package for eight glyphs).

export type SectionIconId =
  "connection" | "screening" | "import" | "refresh" | "builder" | "company" | "why" | "changes";

/** 20x20 strokes in the current text colour, so the selected tab's colour applies. */
const PATHS: Record<SectionIconId, string> = {
  // a plug
  connection: "M7 2v4M13 2v4M5 6h10v3a5 5 0 0 1-10 0zM10 14v4",
  // a funnel
  screening: "M3 4h14l-5.5 6.5V16l-3 1.5v-7z",
  // a table with an arrow into it
  import: "M3 9h14v8H3zM3 13h14M8 9v8M10 2v5M7.5 4.5 10 7l2.5-2.5",
  // a circular arrow
  refresh: "M16 10a6 6 0 1 1-2-4.5M16 3v4h-4",
  // f(x)
  builder: "M9 3c-2 0-2.5 1-2.8 3L4.8 16c-.3 1.5-1 2-2.3 2M4 8h5M11 8l5 7M16 8l-5 7",
  // a building
  company: "M4 18V3h8v15M12 8h4v10M2 18h16M6.5 6h3M6.5 9h3M6.5 12h3M14 11h0M14 14h0",
  // a magnifier over a line
  why: "M8.5 3a5.5 5.5 0 1 1 0 11a5.5 5.5 0 0 1 0-11zM12.5 12.5 17 17M6 8.5h5",
  // two arrows, up and down
  changes: "M6 16V4M3 7l3-3 3 3M14 4v12M11 13l3 3 3-3",
};

export function SectionIcon(props: { id: SectionIconId }) {
  return (
    <svg
      viewBox="0 0 20 20"
      width="20"
      height="20"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.5}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[props.id]} />
    </svg>
  );
}
