// The pane's link to the help page (assets/help.html) in the pane's language, at the open section.

import { Link } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import type { Lang } from "../i18n/language";

/** Where each of the pane's sections is explained on the help page (assets/help.html ids). */
const HELP_ANCHORS: Readonly<Record<string, Readonly<Record<Lang, string>>>> = {
  connection: { ja: "troubleshooting-ja", en: "troubleshooting" },
  screening: { ja: "names-and-values", en: "names-and-values" },
  import: { ja: "names-and-values", en: "names-and-values" },
  refresh: { ja: "refresh-ja", en: "refresh" },
  builder: { ja: "builder-ja", en: "builder" },
  company: { ja: "sheets-ja", en: "sheets" },
  why: { ja: "why-ja", en: "why" },
  changes: { ja: "changes-ja", en: "changes" },
};

/**
 * The help page for `section` in `lang`, next to the pane's page (the build copies assets/ beside
 * taskpane.html; the manifest's SupportUrl is the same file).
 * @example helpUrl("ja", "builder", "https://localhost:3000/taskpane.html") // "https://localhost:3000/assets/help.html?lang=ja#builder-ja"
 * @internal Tests check the link for each section (the pane calls it through HelpLink).
 */
export function helpUrl(lang: Lang, section: string, pageUrl: string | undefined): string {
  const anchor = HELP_ANCHORS[section]?.[lang];
  const relative = `assets/help.html?lang=${lang}${anchor === undefined ? "" : `#${anchor}`}`;
  // Without a page (server rendering in tests) the link stays relative to wherever it is shown.
  return pageUrl === undefined ? relative : new URL(relative, pageUrl).href;
}

interface OfficeUi {
  context?: {
    ui?: { openBrowserWindow?: (url: string) => void };
    requirements?: { isSetSupported?: (name: string, version?: string) => boolean };
  };
}

/**
 * Opens `url` in the user's browser: Office.context.ui.openBrowserWindow where the host has
 * OpenBrowserWindowApi 1.1 (a task pane's own navigation would replace the pane), else a new window.
 */
export function openInBrowser(url: string): void {
  const office = (globalThis as { Office?: OfficeUi }).Office;
  const ui = office?.context?.ui;
  const supported =
    office?.context?.requirements?.isSetSupported?.("OpenBrowserWindowApi", "1.1") === true;
  if (supported && ui?.openBrowserWindow) {
    ui.openBrowserWindow(url);
    return;
  }
  window.open(url, "_blank", "noopener");
}

export function HelpLink(props: { section: string }) {
  const { t } = usePane();
  const href = helpUrl(
    t.lang,
    props.section,
    typeof document === "undefined" ? undefined : document.baseURI,
  );
  return (
    <Link
      href={href}
      target="_blank"
      rel="noopener"
      data-testid="help-link"
      onClick={(e) => {
        e.preventDefault();
        openInBrowser(href);
      }}
    >
      {t("helpLink")}
    </Link>
  );
}
