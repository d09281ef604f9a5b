// The preview page: a small grid where KAISHA formulas typed by the user run through the real
// functions bundle (captured by the CustomFunctions stand-in) and spill their results, as in Excel.
import { setHostCapabilities } from "../functions/host";
import { startFunctions } from "../functions/startup";
import {
  configureSession,
  DEFAULT_BASE_URL,
  getClient,
  getSettings,
  setKeyProvider,
  type ConnectionMode,
} from "../src/session";
import { installedStandIn } from "./custom-functions-standin";
import { evaluate, type FunctionMetadata } from "./evaluate";
import {
  cellAddress,
  FormulaSyntaxError,
  parseAddress,
  readCellInput,
  referencedCells,
  type CellPosition,
} from "./formula-parser";
import { Sheet, type ViewCell } from "./sheet";
import { callAtCursor } from "./signature-hint";
import { EXAMPLES, pickLang, stringsFor, type PreviewLang, type Strings } from "./strings";
import { urlOverrides } from "../taskpane/state/url-overrides";
import { isValidBaseUrl } from "../taskpane/state/pane-settings";

/** Build-time constant: the sandbox demo key in `npm start` and e2e builds, "" in production. */
declare const __KAISHA_DEMO_KEY__: string;
const DEMO_KEY = typeof __KAISHA_DEMO_KEY__ === "string" ? __KAISHA_DEMO_KEY__ : "";

const NAMESPACE = "KAISHA";
const MIN_ROWS = 30;
const MIN_COLS = 10;
const MAX_ROWS_SHOWN = 2000;
const MAX_COLS_SHOWN = 60;
/** A result change re-runs formulas that read it; this bounds chains (and circular references). */
const MAX_RECALC_DEPTH = 8;

interface PageState {
  lang: PreviewLang;
  t: Strings;
  sheet: Sheet;
  selected: CellPosition;
  metadata: Map<string, FunctionMetadata>;
  /** One controller per formula cell: a new evaluation cancels the previous one. */
  running: Map<string, AbortController>;
  apiKey: string;
}

function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

function byTestId<T extends HTMLElement>(id: string): T {
  const node = document.querySelector<T>(`[data-testid="${id}"]`);
  if (!node) throw new Error(`preview: missing ${id}`);
  return node;
}

/** functions.json (or functions-ja.json for Japanese descriptions) from next to this page. */
async function loadMetadata(lang: PreviewLang): Promise<Map<string, FunctionMetadata>> {
  const files = lang === "ja" ? ["functions-ja.json", "functions.json"] : ["functions.json"];
  for (const file of files) {
    try {
      const res = await fetch(file, { cache: "no-store" });
      if (!res.ok) continue;
      const body = (await res.json()) as { functions?: FunctionMetadata[] };
      return new Map((body.functions ?? []).map((f) => [f.id.toUpperCase(), f]));
    } catch {
      // try the next file
    }
  }
  return new Map();
}

function isSandboxUrl(url: string): boolean {
  return /^https?:\/\/(127\.0\.0\.1|localhost)(:\d+)?\//.test(url);
}

function renderShell(
  state: PageState,
  root: HTMLElement,
  settings: { baseUrl: string; mode: ConnectionMode },
): void {
  const { t } = state;
  root.replaceChildren();
  const langSelect = el("select", { "data-testid": "preview-lang", "aria-label": t.language });
  for (const [value, label] of [
    ["ja", "日本語"],
    ["en", "English"],
  ] as const) {
    const option = el("option", { value }, label);
    if (value === state.lang) option.selected = true;
    langSelect.append(option);
  }
  langSelect.addEventListener("change", () => {
    const url = new URL(window.location.href);
    url.searchParams.set("lang", langSelect.value);
    window.location.assign(url.toString());
  });

  const badge = el("span", { class: "badge", "data-testid": "preview-badge" });
  const header = el(
    "header",
    { class: "top" },
    el("img", { src: "assets/icon-32.png", alt: "" }),
    el("h1", {}, t.title),
    badge,
    // Sandbox builds carry workbook.html: the real task pane beside a workbook on the Excel
    // stand-in, where every pane flow runs without Excel.
    ...(DEMO_KEY !== ""
      ? [
          el(
            "a",
            {
              href: `workbook.html?lang=${state.lang}`,
              "data-testid": "preview-workbook-link",
              style: "color:#fff",
            },
            t.workbookLink,
          ),
        ]
      : []),
    langSelect,
  );

  const baseUrl = el("input", {
    type: "text",
    size: "34",
    "data-testid": "preview-base-url",
    "aria-label": t.baseUrl,
  });
  baseUrl.value = settings.baseUrl;
  const mode = el("select", { "data-testid": "preview-mode", "aria-label": t.mode });
  mode.append(
    el("option", { value: "direct" }, t.modeDirect),
    el("option", { value: "relay" }, t.modeRelay),
  );
  mode.value = settings.mode;
  const key = el("input", {
    type: "password",
    size: "40",
    autocomplete: "off",
    spellcheck: "false",
    "data-testid": "preview-key",
    "aria-label": t.apiKey,
  });
  key.value = state.apiKey;
  const apply = el("button", { type: "button", "data-testid": "preview-apply" }, t.apply);
  const connMessage = el("div", { class: "message", "data-testid": "preview-conn-message" });
  const connection = el(
    "section",
    { class: "panel" },
    el(
      "div",
      { class: "row" },
      el("label", {}, t.baseUrl),
      baseUrl,
      el("label", {}, t.mode),
      mode,
      el("label", {}, t.apiKey),
      key,
      apply,
    ),
    connMessage,
  );

  const examples = el("div", { class: "row examples" }, el("label", {}, t.examples));
  EXAMPLES.forEach((formula, i) => {
    const button = el("button", { type: "button", "data-testid": `preview-example-${i}` }, formula);
    button.addEventListener("click", () => {
      byTestId<HTMLInputElement>("preview-formula-input").value = formula;
      byTestId<HTMLInputElement>("preview-formula-input").focus();
    });
    examples.append(button);
  });

  const nameBox = el("input", {
    type: "text",
    class: "name-box",
    "data-testid": "preview-address",
    "aria-label": t.cell,
  });
  const formula = el("input", {
    type: "text",
    class: "formula",
    placeholder: t.formulaPlaceholder,
    spellcheck: "false",
    autocomplete: "off",
    "data-testid": "preview-formula-input",
    "aria-label": t.formula,
  });
  const enter = el(
    "button",
    { type: "button", class: "primary", "data-testid": "preview-enter" },
    t.enter,
  );
  const recalc = el("button", { type: "button", "data-testid": "preview-recalc" }, t.recalc);
  const clear = el("button", { type: "button", "data-testid": "preview-clear" }, t.clear);
  const bar = el(
    "div",
    { class: "formula-bar" },
    nameBox,
    el("span", { class: "fx" }, "fx"),
    formula,
    enter,
    recalc,
    clear,
  );
  const hint = el("div", { class: "hint", "data-testid": "preview-hint" });
  const message = el("div", { class: "message", "data-testid": "preview-message" });

  const gridWrap = el("div", { class: "grid-wrap", "data-testid": "preview-grid-wrap" });
  const detail = el("section", { class: "panel detail", "data-testid": "preview-detail" });
  const functions = el("details", { class: "panel functions", "data-testid": "preview-functions" });
  const stats = el(
    "footer",
    {},
    el("div", { "data-testid": "preview-stats" }),
    el("div", {}, t.attribution),
  );

  root.append(
    header,
    el(
      "main",
      {},
      connection,
      el("section", { class: "panel" }, examples, bar, hint, message),
      gridWrap,
      detail,
      functions,
    ),
    stats,
  );

  const applyConnection = () => {
    // The pane's rule (isValidBaseUrl): the key goes over https, or plain http only to this
    // computer.
    const url = baseUrl.value.trim();
    if (!isValidBaseUrl(url)) {
      connMessage.dataset["kind"] = "error";
      connMessage.textContent = t.badUrl;
      return;
    }
    state.apiKey = key.value.trim();
    configureSession({
      baseUrl: url,
      connectionMode: mode.value === "relay" ? "relay" : "direct",
    });
    updateBadge(state);
    connMessage.dataset["kind"] = "info";
    connMessage.textContent = `${t.applied} ${state.apiKey === "" ? t.noKey : state.apiKey === DEMO_KEY ? t.demoKeyInUse : ""}`;
    recalculateAll(state);
  };
  apply.addEventListener("click", applyConnection);
  key.addEventListener("keydown", (e) => e.key === "Enter" && applyConnection());

  const commitFromBar = () => {
    const target = parseAddress(nameBox.value) ?? state.selected;
    select(state, target, false);
    commit(state, target, formula.value, true);
    // Back to the grid, as Excel does after Enter: typing now starts the next cell's entry.
    formula.blur();
  };
  enter.addEventListener("click", commitFromBar);
  formula.addEventListener("keydown", (e) => {
    if (e.key === "Enter") {
      e.preventDefault();
      commitFromBar();
    } else if (e.key === "Escape") {
      formula.value = state.sheet.textAt(state.selected);
    }
  });
  const updateHint = () =>
    renderHint(state, formula.value, formula.selectionStart ?? formula.value.length);
  for (const event of ["input", "keyup", "click", "focus"])
    formula.addEventListener(event, updateHint);
  formula.addEventListener("blur", () => renderHint(state, "", 0));
  nameBox.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    const at = parseAddress(nameBox.value);
    if (at) select(state, at, true);
  });
  recalc.addEventListener("click", () => recalculateAll(state));
  clear.addEventListener("click", () => {
    for (const controller of state.running.values()) controller.abort();
    state.running.clear();
    state.sheet.clear();
    select(state, { row: 0, col: 0 }, true);
    renderGrid(state);
  });
  updateBadge(state);
}

/** Excel-style argument hint: the signature of the call being typed, its current argument bold. */
function renderHint(state: PageState, text: string, cursor: number): void {
  const node = byTestId("preview-hint");
  const call = callAtCursor(text, cursor);
  const fn = call?.name.startsWith(`${NAMESPACE}.`)
    ? state.metadata.get(call.name.slice(NAMESPACE.length + 1))
    : undefined;
  if (!call || !fn) {
    node.replaceChildren();
    return;
  }
  const parts: (Node | string)[] = [`${NAMESPACE}.${fn.name}(`];
  fn.parameters.forEach((p, i) => {
    if (i > 0) parts.push(", ");
    const label = p.optional ? `[${p.name}]` : p.name;
    parts.push(
      i === call.argIndex ? el("strong", { "data-testid": "preview-hint-current" }, label) : label,
    );
  });
  parts.push(")");
  const current = fn.parameters[call.argIndex];
  node.replaceChildren(
    el("code", {}, ...parts),
    ...(current?.description ? [el("div", {}, `${current.name}: ${current.description}`)] : []),
  );
}

function updateBadge(state: PageState): void {
  const badge = byTestId("preview-badge");
  const sandbox = isSandboxUrl(getSettings().baseUrl);
  badge.textContent = sandbox ? state.t.sampleBadge : state.t.liveBadge;
}

function renderFunctions(state: PageState): void {
  const container = byTestId("preview-functions");
  container.replaceChildren(el("summary", {}, `${state.t.functions} (${state.metadata.size})`));
  const list = el("ul", {});
  for (const fn of [...state.metadata.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    const params = fn.parameters.map((p) => (p.optional ? `[${p.name}]` : p.name)).join(", ");
    const link = el(
      "a",
      { "data-testid": `preview-fn-${fn.id}` },
      `${NAMESPACE}.${fn.name}(${params})`,
    );
    link.addEventListener("click", () => {
      const input = byTestId<HTMLInputElement>("preview-formula-input");
      input.value = `=${NAMESPACE}.${fn.name}(`;
      input.focus();
    });
    list.append(el("li", {}, link, el("br"), fn.description ?? ""));
  }
  container.append(list);
}

function cellText(state: PageState, view: ViewCell | undefined): string {
  if (!view) return "";
  const cell = view.cell;
  if (cell.kind === "error" && cell.code === "#SPILL!") return "#SPILL!";
  return cell.text;
}

function renderGrid(state: PageState): void {
  const wrap = byTestId("preview-grid-wrap");
  const extent = state.sheet.extent();
  const rows = Math.min(
    MAX_ROWS_SHOWN,
    Math.max(MIN_ROWS, extent.rows + 3, state.selected.row + 2),
  );
  const cols = Math.min(
    MAX_COLS_SHOWN,
    Math.max(MIN_COLS, extent.cols + 1, state.selected.col + 2),
  );
  const table = el("table", { class: "grid", "data-testid": "preview-grid" });
  const headRow = el("tr", {}, el("th", {}, ""));
  for (let c = 0; c < cols; c++)
    headRow.append(el("th", {}, cellAddress({ row: 0, col: c }).replace(/\d+$/, "")));
  table.append(el("thead", {}, headRow));
  const body = el("tbody");
  for (let r = 0; r < rows; r++) {
    const tr = el("tr", {}, el("th", {}, String(r + 1)));
    for (let c = 0; c < cols; c++) {
      const at = { row: r, col: c };
      const address = cellAddress(at);
      const view = state.sheet.at(at);
      const td = el("td", { "data-testid": `preview-cell-${address}`, "data-address": address });
      const kind = view?.cell.kind ?? "empty";
      td.dataset["kind"] = kind;
      if (view?.spill) td.dataset["spill"] = view.spill;
      if (state.sheet.inputAt(at).kind === "formula") td.dataset["formula"] = "true";
      if (view?.cell.kind === "error") {
        td.dataset["errorCode"] = view.cell.code;
        const message = view.cell.code === "#SPILL!" ? state.t.spillBlocked : view.cell.message;
        if (message) td.title = `${view.cell.code} ${message}`;
      } else if (view?.cell.kind === "entity") {
        td.title = view.cell.properties.map(([k, v]) => `${k}: ${v}`).join("\n");
      }
      if (r === state.selected.row && c === state.selected.col) td.dataset["selected"] = "true";
      td.textContent = cellText(state, view);
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(body);
  table.addEventListener("click", (e) => {
    const td = (e.target as HTMLElement).closest("td");
    const at = td ? parseAddress(td.dataset["address"] ?? "") : undefined;
    if (at) select(state, at, true);
  });
  table.addEventListener("dblclick", () =>
    byTestId<HTMLInputElement>("preview-formula-input").focus(),
  );
  const scroll = { top: wrap.scrollTop, left: wrap.scrollLeft };
  wrap.replaceChildren(table);
  wrap.scrollTop = scroll.top;
  wrap.scrollLeft = scroll.left;
  if (extent.rows > MAX_ROWS_SHOWN)
    wrap.append(el("div", { class: "message" }, state.t.gridTruncated(MAX_ROWS_SHOWN)));
  renderDetail(state);
  renderStats();
}

function renderDetail(state: PageState): void {
  const { t, sheet, selected } = state;
  const detail = byTestId("preview-detail");
  const view = sheet.at(selected);
  const text = sheet.textAt(selected);
  const lines: Node[] = [el("div", {}, el("strong", {}, `${t.cell} ${cellAddress(selected)}`))];
  if (text)
    lines.push(
      el(
        "div",
        {},
        `${t.formula}: `,
        el("code", { "data-testid": "preview-detail-formula" }, text),
      ),
    );
  if (view && view.anchor && view.spill === "spilled") {
    lines.push(el("div", {}, `${t.spilledFrom}: ${cellAddress(view.anchor)}`));
  }
  if (view) {
    const cell = view.cell;
    if (cell.kind === "error") {
      const message = cell.code === "#SPILL!" ? t.spillBlocked : cell.message;
      lines.push(
        el(
          "div",
          { class: "error-message", "data-testid": "preview-detail-error" },
          `${cell.code}${message ? ` — ${message}` : ""}`,
        ),
      );
    } else if (cell.kind === "busy") {
      lines.push(el("div", {}, t.busy));
    } else if (cell.kind === "entity") {
      lines.push(el("div", {}, `${t.entityCard}: ${cell.text}`));
      for (const [k, v] of cell.properties) lines.push(el("div", {}, `\u3000${k}: ${v}`));
    } else if (cell.kind !== "empty") {
      lines.push(el("div", { "data-testid": "preview-detail-value" }, `${t.value}: ${cell.text}`));
    }
  }
  if (!text && !view) lines.push(el("div", {}, t.selectCell));
  detail.replaceChildren(...lines);
}

function renderStats(): void {
  const node = document.querySelector('[data-testid="preview-stats"]');
  if (!node) return;
  const s = getClient().stats();
  (node as HTMLElement).dataset["requests"] = String(s.requestsSent);
  node.textContent = stringsFor(currentLang).stats(s.requestsSent, s.cacheHits, s.coalesced);
}

function select(state: PageState, at: CellPosition, fillBar: boolean): void {
  state.selected = at;
  byTestId<HTMLInputElement>("preview-address").value = cellAddress(at);
  if (fillBar) byTestId<HTMLInputElement>("preview-formula-input").value = state.sheet.textAt(at);
  renderGrid(state);
}

function showMessage(kind: "error" | "info", text: string): void {
  const node = byTestId("preview-message");
  node.dataset["kind"] = kind;
  node.textContent = text;
}

/** Reads the text, stores it, evaluates it when it is a formula. Syntax errors are refused. */
function commit(state: PageState, at: CellPosition, text: string, moveDown: boolean): void {
  let input;
  try {
    input = readCellInput(text);
  } catch (err) {
    if (err instanceof FormulaSyntaxError) {
      showMessage("error", `${state.t.syntaxError}: ${err.message} (${err.position + 1})`);
      return;
    }
    throw err;
  }
  showMessage("info", "");
  const before = state.sheet.spillArea(at);
  state.sheet.setInput(at, text, input);
  if (input.kind === "formula") void calculate(state, at, 0);
  else afterChange(state, [before, { from: at, to: at }], 0);
  if (moveDown) select(state, { row: at.row + 1, col: at.col }, true);
  else renderGrid(state);
}

/** Evaluates the formula at `at`; a newer evaluation of the same cell cancels this one. */
async function calculate(state: PageState, at: CellPosition, depth: number): Promise<void> {
  const input = state.sheet.inputAt(at);
  if (input.kind !== "formula") return;
  const k = `${at.row},${at.col}`;
  state.running.get(k)?.abort();
  const controller = new AbortController();
  state.running.set(k, controller);
  const before = state.sheet.spillArea(at);
  state.sheet.setBusy(at);
  renderGrid(state);
  const cells = await evaluate(input.expr, {
    namespace: NAMESPACE,
    metadata: state.metadata,
    implementations: installedStandIn()?.registry ?? new Map(),
    cellAt: (p) => state.sheet.valueAt(p),
    address: at,
    sheetName: "Preview",
    signal: controller.signal,
    // As a CustomFunctionsRuntime 1.4 host with allowCustomDataForDataTypeAny (STANDIN.md).
    dataTypeArguments: "all",
    onStreamUpdate: (update) => {
      if (!controller.signal.aborted) {
        state.sheet.setResult(at, update);
        renderGrid(state);
      }
    },
  });
  // A superseded calculation (null: its call was never made) leaves the cell to the newer one.
  if (cells === null || controller.signal.aborted || state.sheet.inputAt(at) !== input) return;
  state.running.delete(k);
  state.sheet.setResult(at, cells);
  renderGrid(state);
  afterChange(state, [before, state.sheet.spillArea(at)], depth, at);
}

function overlaps(
  a: { from: CellPosition; to: CellPosition },
  b: { from: CellPosition; to: CellPosition },
): boolean {
  return (
    a.from.row <= b.to.row &&
    b.from.row <= a.to.row &&
    a.from.col <= b.to.col &&
    b.from.col <= a.to.col
  );
}

/** Re-runs formulas that read any of the changed areas (one level per change, bounded). */
function afterChange(
  state: PageState,
  changed: { from: CellPosition; to: CellPosition }[],
  depth: number,
  source?: CellPosition,
): void {
  if (depth >= MAX_RECALC_DEPTH) return;
  for (const at of state.sheet.formulas()) {
    if (source && at.row === source.row && at.col === source.col) continue;
    const input = state.sheet.inputAt(at);
    if (input.kind !== "formula") continue;
    if (referencedCells(input.expr).some((area) => changed.some((c) => overlaps(area, c)))) {
      void calculate(state, at, depth + 1);
    }
  }
}

function recalculateAll(state: PageState): void {
  for (const at of state.sheet.formulas()) void calculate(state, at, MAX_RECALC_DEPTH);
}

/**
 * Keys on the grid (focus outside any input), as in a spreadsheet: arrows move, Enter or F2 edits in
 * the formula bar, Delete clears, and typing starts a new entry in the bar.
 */
function onGridKey(state: PageState, e: KeyboardEvent): void {
  const target = e.target as HTMLElement | null;
  if (target && /^(INPUT|SELECT|TEXTAREA|BUTTON|SUMMARY|A)$/.test(target.tagName)) return;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const bar = byTestId<HTMLInputElement>("preview-formula-input");
  const { row, col } = state.selected;
  const moves: Record<string, CellPosition> = {
    ArrowUp: { row: Math.max(0, row - 1), col },
    ArrowDown: { row: row + 1, col },
    ArrowLeft: { row, col: Math.max(0, col - 1) },
    ArrowRight: { row, col: col + 1 },
    Tab: { row, col: col + 1 },
  };
  const move = moves[e.key];
  if (move) {
    e.preventDefault();
    select(state, move, true);
  } else if (e.key === "Enter" || e.key === "F2") {
    e.preventDefault();
    bar.focus();
  } else if (e.key === "Delete" || e.key === "Backspace") {
    e.preventDefault();
    commit(state, state.selected, "", false);
    bar.value = "";
  } else if (e.key.length === 1) {
    e.preventDefault();
    bar.value = e.key;
    bar.focus();
  }
}

let currentLang: PreviewLang = "en";

async function main(): Promise<void> {
  const root = document.getElementById("preview-root");
  if (!root) return;
  const lang = pickLang(window.location.search, navigator.language);
  currentLang = lang;
  document.documentElement.lang = lang;
  const t = stringsFor(lang);
  root.textContent = t.loading;

  // Query overrides (npm start and e2e builds only, never production): base URL and mode, never the key.
  const override = urlOverrides(new URLSearchParams(window.location.search));
  const baseUrl = override?.baseUrl ?? DEFAULT_BASE_URL;
  const mode: ConnectionMode = override?.mode ?? "direct";
  const state: PageState = {
    lang,
    t,
    sheet: new Sheet(),
    selected: { row: 0, col: 0 },
    metadata: new Map(),
    running: new Map(),
    apiKey: DEMO_KEY,
  };
  configureSession({ baseUrl, connectionMode: mode, lang });
  setKeyProvider(() => (state.apiKey === "" ? undefined : state.apiKey));
  // The functions' own start-up (Office.onReady, host capabilities) runs first; outside Excel
  // Office.js reports host null. Never wait on it for long.
  await Promise.race([
    startFunctions(),
    new Promise((resolve) => window.setTimeout(resolve, 3000)),
  ]);
  // Then the preview behaves as Excel on the web does (CustomFunctionsRuntime 1.4): formatted
  // numbers (dates) and entity cards.
  setHostCapabilities({ dataTypes: true });

  state.metadata = await loadMetadata(lang);
  const standIn = installedStandIn();
  renderShell(state, root, { baseUrl, mode });
  if (!standIn || standIn.registry.size === 0 || state.metadata.size === 0) {
    showMessage("error", t.loadFailed);
  }
  renderFunctions(state);
  select(state, { row: 0, col: 0 }, true);
  if (state.apiKey === "") {
    const conn = byTestId("preview-conn-message");
    conn.textContent = t.noKey;
  }
  root.dataset["ready"] = "true";
  root.dataset["functions"] = String(standIn?.registry.size ?? 0);
  document.addEventListener("keydown", (e) => onGridKey(state, e));
  window.setInterval(renderStats, 2000);
}

void main();
