// The section tabs: every section one click away at any width (an icon with a short label; the full
// name as tooltip and accessible name, and in the tab itself where the pane is wide enough).

import { Tab, TabList, Tooltip } from "@fluentui/react-components";
import { SectionIcon, type SectionIconId } from "./section-icons";

export interface TabInfo {
  id: SectionIconId;
  /** the section's full name (tooltip, accessible name, the label on a wide pane). */
  label: string;
  /** a word or two that fits a sixth of a 320 px pane. */
  short: string;
}

/**
 * One row of equal tabs, none hidden behind a menu (at 320 px every section is reachable in one
 * click: test/e2e/pane-formulas.test.ts). The arrow keys move between tabs (Fluent TabList).
 */
export function SectionTabs(props: {
  tabs: readonly TabInfo[];
  selected: string;
  onSelect: (id: string) => void;
  ariaLabel: string;
}) {
  return (
    <TabList
      size="small"
      className="kaisha-tabs"
      aria-label={props.ariaLabel}
      selectedValue={props.selected}
      onTabSelect={(_, d) => props.onSelect(String(d.value))}
    >
      {props.tabs.map((tab) => (
        <Tooltip key={tab.id} content={tab.label} relationship="description" withArrow>
          <Tab
            value={tab.id}
            data-testid={`nav-${tab.id}`}
            aria-label={tab.label}
            className="kaisha-tab"
            icon={<SectionIcon id={tab.id} />}
          >
            <span className="kaisha-tab-short" aria-hidden="true">
              {tab.short}
            </span>
            <span className="kaisha-tab-full" aria-hidden="true">
              {tab.label}
            </span>
          </Tab>
        </Tooltip>
      ))}
    </TabList>
  );
}
