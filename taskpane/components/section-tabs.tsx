// The section tabs: as many as fit the pane's width in one row, the rest in a "more" menu.

import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  Overflow,
  OverflowItem,
  Tab,
  TabList,
  useIsOverflowItemVisible,
  useOverflowMenu,
} from "@fluentui/react-components";

export interface TabInfo {
  id: string;
  label: string;
}

function MenuEntry(props: { tab: TabInfo; onSelect: (id: string) => void }) {
  const visible = useIsOverflowItemVisible(props.tab.id);
  if (visible) return null;
  return (
    <MenuItem data-testid={`nav-menu-${props.tab.id}`} onClick={() => props.onSelect(props.tab.id)}>
      {props.tab.label}
    </MenuItem>
  );
}

function MoreMenu(props: {
  tabs: readonly TabInfo[];
  label: (n: number) => string;
  onSelect: (id: string) => void;
}) {
  const { ref, isOverflowing, overflowCount } = useOverflowMenu<HTMLDivElement>();
  if (!isOverflowing) return null;
  // The wrapper is what the overflow measures: the menu button's width is kept free in the row.
  return (
    <div ref={ref} style={{ display: "inline-flex", flexShrink: 0 }}>
      <Menu hasIcons={false}>
        <MenuTrigger disableButtonEnhancement>
          <Button
            appearance="transparent"
            size="small"
            data-testid="nav-more"
            icon={<span aria-hidden="true">▾</span>}
            iconPosition="after"
          >
            {props.label(overflowCount)}
          </Button>
        </MenuTrigger>
        <MenuPopover>
          <MenuList>
            {props.tabs.map((tab) => (
              <MenuEntry key={tab.id} tab={tab} onSelect={props.onSelect} />
            ))}
          </MenuList>
        </MenuPopover>
      </Menu>
    </div>
  );
}

/**
 * One row of tabs at any width (issue 12: 320–350 px): tabs that do not fit move into a menu; the
 * selected tab is kept visible.
 */
export function SectionTabs(props: {
  tabs: readonly TabInfo[];
  selected: string;
  onSelect: (id: string) => void;
  moreLabel: (n: number) => string;
  ariaLabel: string;
}) {
  return (
    <Overflow minimumVisible={2} padding={8}>
      <TabList
        size="small"
        className="kaisha-tabs"
        aria-label={props.ariaLabel}
        selectedValue={props.selected}
        onTabSelect={(_, d) => props.onSelect(String(d.value))}
        style={{ flexWrap: "nowrap", overflow: "hidden" }}
      >
        {props.tabs.map((tab) => (
          <OverflowItem key={tab.id} id={tab.id} priority={tab.id === props.selected ? 2 : 1}>
            <Tab value={tab.id} data-testid={`nav-${tab.id}`}>
              {tab.label}
            </Tab>
          </OverflowItem>
        ))}
        <MoreMenu tabs={props.tabs} label={props.moreLabel} onSelect={props.onSelect} />
      </TabList>
    </Overflow>
  );
}
