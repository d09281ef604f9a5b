// In-page stand-in for Excel (built by webpack as excel-standin.js, injected with page.addInitScript): an
// in-memory workbook behind the subset of the Excel JS API that taskpane/excel/ uses, a CustomFunctions
// registry whose KAISHA formulas run through the preview page's engine (standin-engine.ts), spills, and
// Office.context (display language, requirement sets). Every behaviour it imitates: STANDIN.md.
// Config (window.__excelStandInConfig): displayLanguage, requirementSets, dataTypeArguments
// ("off" | "formatted" | "all"), emptyArgument ("null" | "zero").
/* global window, fetch, setTimeout, AbortController */
import { formatNumber } from "./cell-display";
import { readCellInput, referencedCells } from "./formula-parser";
import { evaluateStandInFormula } from "./standin-engine";

/* eslint-disable @typescript-eslint/no-this-alias -- plain ES5 injected into the page: closures keep "this" */
(function installExcelStandIn(config) {
  "use strict";
  var cfg = config || {};
  var MAX_ROWS = 1048576;
  var MAX_COLS = 16384;

  // ---------- A1 helpers ----------
  function colName(i) {
    var n = i + 1;
    var s = "";
    while (n > 0) {
      var r = (n - 1) % 26;
      s = String.fromCharCode(65 + r) + s;
      n = Math.floor((n - 1) / 26);
    }
    return s;
  }
  function colIndex(letters) {
    var n = 0;
    for (var k = 0; k < letters.length; k++)
      n = n * 26 + (letters.toUpperCase().charCodeAt(k) - 64);
    return n - 1;
  }
  function cellName(r, c) {
    return colName(c) + (r + 1);
  }
  function quoteSheet(name) {
    return /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : "'" + name.replace(/'/g, "''") + "'";
  }
  /** "Sheet1!A1:B2" | "A1" | "B:B" | "3:5" -> {sheet?, top, left, bottom, right}. */
  function parseRef(address) {
    var bang = address.lastIndexOf("!");
    var sheet =
      bang >= 0
        ? address
            .slice(0, bang)
            .replace(/^'(.*)'$/, "$1")
            .replace(/''/g, "'")
        : undefined;
    var body = (bang >= 0 ? address.slice(bang + 1) : address).replace(/\$/g, "").toUpperCase();
    var parts = body.split(":");
    var a = parts[0];
    var b = parts.length > 1 ? parts[1] : parts[0];
    var m1, m2;
    if (/^[A-Z]+$/.test(a) && /^[A-Z]+$/.test(b)) {
      return {
        sheet: sheet,
        top: 0,
        bottom: MAX_ROWS - 1,
        left: Math.min(colIndex(a), colIndex(b)),
        right: Math.max(colIndex(a), colIndex(b)),
      };
    }
    if (/^[0-9]+$/.test(a) && /^[0-9]+$/.test(b)) {
      return {
        sheet: sheet,
        left: 0,
        right: MAX_COLS - 1,
        top: Math.min(+a, +b) - 1,
        bottom: Math.max(+a, +b) - 1,
      };
    }
    m1 = /^([A-Z]+)([0-9]+)$/.exec(a);
    m2 = /^([A-Z]+)([0-9]+)$/.exec(b);
    if (!m1 || !m2) throw excelError("InvalidArgument", "Invalid address: " + address);
    var r1 = +m1[2] - 1,
      r2 = +m2[2] - 1,
      c1 = colIndex(m1[1]),
      c2 = colIndex(m2[1]);
    return {
      sheet: sheet,
      top: Math.min(r1, r2),
      bottom: Math.max(r1, r2),
      left: Math.min(c1, c2),
      right: Math.max(c1, c2),
    };
  }
  function rectAddress(rect) {
    var a = cellName(rect.top, rect.left);
    if (rect.top === 0 && rect.bottom === MAX_ROWS - 1)
      return colName(rect.left) + ":" + colName(rect.right);
    return rect.top === rect.bottom && rect.left === rect.right
      ? a
      : a + ":" + cellName(rect.bottom, rect.right);
  }

  function excelError(code, message) {
    var err = new Error(message);
    err.name = "RichApi.Error";
    err.code = code;
    return err;
  }

  // ---------- CustomFunctions stand-in ----------
  var registry = new Map();
  function CFError(code, message) {
    this.code = code;
    if (message !== undefined) this.message = message;
  }
  var ErrorCode = {
    invalidValue: "#VALUE!",
    notAvailable: "#N/A",
    divisionByZero: "#DIV/0!",
    invalidNumber: "#NUM!",
    nullReference: "#NULL!",
    invalidName: "#NAME?",
    invalidReference: "#REF!",
  };
  function associate(id, fn) {
    if (typeof id === "string") registry.set(id.toUpperCase(), fn);
    else
      Object.keys(id).forEach(function (key) {
        registry.set(key.toUpperCase(), id[key]);
      });
  }
  var cf = { Error: CFError, ErrorCode: ErrorCode };
  // office.js (loaded by the page after this script) assigns its own CustomFunctions.associate, which
  // only records into its table: keep capturing, and pass each association on to it as well.
  var officeAssociate;
  Object.defineProperty(cf, "associate", {
    configurable: true,
    enumerable: true,
    get: function () {
      return function (id, fn) {
        associate(id, fn);
        if (officeAssociate) officeAssociate.apply(cf, arguments);
      };
    },
    set: function (fn) {
      officeAssociate = fn;
    },
  });
  window.CustomFunctions = cf;

  // ---------- Office.context ----------
  var requirementSets = cfg.requirementSets || {
    ExcelApi: "1.16",
    CustomFunctionsRuntime: "1.4",
    SharedRuntime: "1.1",
  };
  function versionAtLeast(have, want) {
    var a = String(have).split(".").map(Number);
    var b = String(want || "1.1")
      .split(".")
      .map(Number);
    for (var i = 0; i < Math.max(a.length, b.length); i++) {
      if ((a[i] || 0) !== (b[i] || 0)) return (a[i] || 0) > (b[i] || 0);
    }
    return true;
  }
  var contextPatch = {
    displayLanguage: cfg.displayLanguage || "ja-JP",
    requirements: {
      isSetSupported: function (name, version) {
        return (
          Object.prototype.hasOwnProperty.call(requirementSets, name) &&
          versionAtLeast(requirementSets[name], version)
        );
      },
    },
  };
  function patchOffice(office) {
    if (!office || typeof office !== "object") return;
    if (!office.context || typeof office.context !== "object") office.context = {};
    Object.keys(contextPatch).forEach(function (k) {
      if (office.context[k] === undefined) office.context[k] = contextPatch[k];
    });
  }
  // office.js assigns the Office global when it loads: patch whatever it assigns.
  var officeValue = window.Office;
  Object.defineProperty(window, "Office", {
    configurable: true,
    get: function () {
      patchOffice(officeValue);
      return officeValue;
    },
    set: function (v) {
      officeValue = v;
    },
  });

  // ---------- the workbook ----------
  var sheets = [];
  var activeSheet;
  var selection = { sheet: "Sheet1", address: "A1" };
  var tableSeq = 0;
  var chartSeq = 0;
  var pending = new Set();
  var calcCount = 0;
  var log = [];

  function newSheet(name) {
    var s = {
      name: name,
      cells: new Map(),
      colFormats: new Map(),
      tables: [],
      charts: [],
      visibility: "Visible",
      anchors: new Map(),
    };
    sheets.push(s);
    return s;
  }
  activeSheet = newSheet("Sheet1");

  function findSheet(name) {
    for (var i = 0; i < sheets.length; i++) if (sheets[i].name === name) return sheets[i];
    return undefined;
  }
  /** A chart title set by formula (`Sheet!$A$1`): what that cell shows now. */
  function titleFromCell(home, ref) {
    var at = parseRef(ref);
    var s = at.sheet === undefined ? home : findSheet(at.sheet);
    if (!s) return "#REF!";
    var v = cellValue(s, at.top, at.left);
    return v.value === null || v.value === undefined ? "" : String(v.value);
  }
  function sheetOrThrow(name) {
    var s = findSheet(name);
    if (!s) throw excelError("ItemNotFound", "The requested resource doesn't exist: sheet " + name);
    return s;
  }
  function k(r, c) {
    return r + "," + c;
  }

  /** The formula anchor whose current spill covers (r, c), if any. */
  function spillAt(s, r, c) {
    var found;
    s.anchors.forEach(function (a, key) {
      if (found || !a.result || a.blocked) return;
      var ar = a.row,
        ac = a.col;
      if (r >= ar && c >= ac && r < ar + a.result.length && c < ac + a.result[0].length) {
        if (!(r === ar && c === ac)) found = { anchor: a, key: key };
      }
    });
    return found;
  }

  /**
   * The format a cell of its own gives its display: none when it is General, the format of a cell
   * never formatted, in which a function's formatted number shows its own format (STANDIN.md,
   * "Dates"; a KAISHA cell typed into a fresh cell shows its value's format).
   */
  function shownOwnFormat(own) {
    var f = own && own.numberFormat;
    return f && !/^general$/i.test(f) ? f : undefined;
  }

  /** What a cell that holds no number shows: a boolean as Excel writes it (TRUE, FALSE). */
  function shownText(value) {
    if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
    return String(value);
  }

  function cellValue(s, r, c) {
    var own = s.cells.get(k(r, c));
    if (own && own.formula !== undefined && s.anchors.has(k(r, c))) {
      var a = s.anchors.get(k(r, c));
      if (a.blocked) return { value: "#SPILL!", error: "Spill" };
      if (!a.result) return { value: "#BUSY!", error: "Busy" };
      return a.result[0][0];
    }
    // A formula not calculated yet (every formula is an anchor once written).
    if (own && typeof own.formula === "string") return { value: "#BUSY!", error: "Busy" };
    // A cell with only a format is empty: a spill shows through it, as in Excel.
    var holds = own && own.value !== "" && own.value !== undefined;
    if (holds) return { value: own.value, numberFormat: own.numberFormat };
    var sp = spillAt(s, r, c);
    if (sp) return sp.anchor.result[r - sp.anchor.row][c - sp.anchor.col];
    return own ? { value: "", numberFormat: own.numberFormat } : { value: "" };
  }

  /** True when a rectangle overlaps one of the sheet's tables. */
  function touchesTable(s, top, left, bottom, right) {
    return s.tables.some(function (t) {
      return !(
        bottom < t.rect.top ||
        top > t.rect.bottom ||
        right < t.rect.left ||
        left > t.rect.right
      );
    });
  }

  /** Re-checks which spills are blocked after any write. */
  function relayout(s) {
    // STANDIN.md "#SPILL!": a spill may not cover another formula's spill; the earlier keeps it.
    var taken = [];
    s.anchors.forEach(function (a) {
      if (!a.result) return;
      // STANDIN.md "#SPILL!": spilled arrays are not supported in Excel tables, nor spill into one.
      var multi = a.result.length > 1 || a.result[0].length > 1;
      var blocked =
        multi &&
        touchesTable(s, a.row, a.col, a.row + a.result.length - 1, a.col + a.result[0].length - 1);
      for (var i = 0; i < a.result.length && !blocked; i++) {
        for (var j = 0; j < a.result[i].length; j++) {
          if (i === 0 && j === 0) continue;
          var own = s.cells.get(k(a.row + i, a.col + j));
          if (own && (own.value !== "" || own.formula !== undefined)) {
            blocked = true;
            break;
          }
        }
      }
      var area = {
        top: a.row,
        left: a.col,
        bottom: a.row + a.result.length - 1,
        right: a.col + a.result[0].length - 1,
      };
      if (!blocked && multi) {
        blocked = taken.some(function (t) {
          return !(
            area.bottom < t.top ||
            area.top > t.bottom ||
            area.right < t.left ||
            area.left > t.right
          );
        });
      }
      a.blocked = blocked;
      if (!blocked) taken.push(area);
    });
  }

  // ---------- KAISHA formula evaluation (the preview's engine: standin-engine.ts) ----------
  var metadataPromise;
  /** functions.json: the functions by id and whether `any` parameters take data types. */
  function metadata() {
    if (!metadataPromise) {
      metadataPromise = fetch("functions.json")
        .then(function (r) {
          return r.json();
        })
        .then(function (j) {
          var m = new Map();
          (j.functions || []).forEach(function (f) {
            m.set(f.id.toUpperCase(), f);
          });
          return { functions: m, allowCustomData: j.allowCustomDataForDataTypeAny === true };
        })
        .catch(function () {
          return { functions: new Map(), allowCustomData: false };
        });
    }
    return metadataPromise;
  }

  /**
   * STANDIN.md "Data-type arguments": rich values reach `any` parameters only when functions.json
   * allows custom data and the host has CustomFunctionsRuntime 1.4.
   */
  function dataTypeMode(meta) {
    if (!meta.allowCustomData) return "off";
    if (!contextPatch.requirements.isSetSupported("CustomFunctionsRuntime", "1.4")) return "off";
    return cfg.dataTypeArguments || "all";
  }

  /** A recalculation chain (A feeds B feeds A…) stops after this many steps. */
  var MAX_CHAIN = 8;

  /** The cell rectangles a formula reads, [] when it cannot be parsed (remembered per text). */
  var readsByFormula = new Map();
  function formulaReads(formula) {
    var known = readsByFormula.get(formula);
    if (known) return known;
    var reads;
    try {
      var input = readCellInput(formula);
      reads = input.kind === "formula" ? referencedCells(input.expr) : [];
    } catch {
      reads = [];
    }
    readsByFormula.set(formula, reads);
    return reads;
  }

  /**
   * STANDIN.md "Recalculation": like Excel's dependency tree, a KAISHA formula that reads a cell of
   * `area` is calculated again when that area's values change (a spill arrives, a value is typed).
   */
  function recalcDependents(s, area, depth, except) {
    if (depth > MAX_CHAIN) return;
    s.cells.forEach(function (cell, key) {
      if (typeof cell.formula !== "string") return;
      if (key === except) return;
      var reads = formulaReads(cell.formula).some(function (ref) {
        return !(
          ref.to.row < area.top ||
          ref.from.row > area.bottom ||
          ref.to.col < area.left ||
          ref.from.col > area.right
        );
      });
      if (!reads) return;
      var rc = key.split(",").map(Number);
      evaluateAnchor(s, rc[0], rc[1], { depth: depth + 1 });
    });
  }

  /** The cells an anchor's current result covers (its own cell when it has none or is blocked). */
  function anchorArea(a) {
    var rows = a.result && !a.blocked ? a.result.length : 1;
    var cols = a.result && !a.blocked ? a.result[0].length : 1;
    return { top: a.row, left: a.col, bottom: a.row + rows - 1, right: a.col + cols - 1 };
  }

  function evaluateAnchor(s, r, c, options) {
    var own = s.cells.get(k(r, c));
    if (!own || typeof own.formula !== "string") return Promise.resolve();
    var anchor = s.anchors.get(k(r, c));
    // STANDIN.md "Cancellation": a new calculation of the cell cancels the one still running.
    if (anchor && anchor.cancel) anchor.cancel();
    var controller = new AbortController();
    anchor = {
      row: r,
      col: c,
      formula: own.formula,
      result: undefined,
      blocked: false,
      cancel: function () {
        controller.abort();
      },
    };
    s.anchors.set(k(r, c), anchor);
    // calculations() counts KAISHA calculations (what a recalculation costs the add-in).
    if (/KAISHA\./i.test(own.formula)) calcCount++;
    var depth = (options && options.depth) || 0;
    var settle = function (grid) {
      // null: this calculation was superseded before its function was called (STANDIN.md
      // "Cancellation"); the job still settles, so whenIdle does not wait for it.
      if (grid === null || s.anchors.get(k(r, c)) !== anchor) return;
      var before = anchorArea(anchor);
      anchor.result = grid;
      relayout(s);
      var after = anchorArea(anchor);
      recalcDependents(
        s,
        {
          top: before.top,
          left: before.left,
          bottom: Math.max(before.bottom, after.bottom),
          right: Math.max(before.right, after.right),
        },
        depth,
        k(r, c),
      );
    };
    var job = metadata()
      .then(function (meta) {
        return evaluateStandInFormula({
          formula: own.formula,
          at: { row: r, col: c },
          sheetName: s.name,
          metadata: meta.functions,
          implementations: registry,
          cellAt: function (at) {
            return cellValue(s, at.row, at.col);
          },
          signal: controller.signal,
          dataTypeArguments: dataTypeMode(meta),
          emptyArgument: cfg.emptyArgument === "zero" ? "zero" : "null",
          valuePreview: !!(options && options.valuePreview),
          onStreamUpdate: settle,
        });
      })
      .then(settle, function (err) {
        settle([[{ value: "#VALUE!", error: "Value", message: String(err) }]]);
      });
    pending.add(job);
    job.then(function () {
      pending.delete(job);
    });
    return job;
  }

  function recalcAll() {
    sheets.forEach(function (s) {
      s.cells.forEach(function (cell, key) {
        if (typeof cell.formula === "string" && /KAISHA\./i.test(cell.formula)) {
          var rc = key.split(",").map(Number);
          evaluateAnchor(s, rc[0], rc[1]);
        }
      });
    });
  }

  // ---------- writes ----------
  function writeCell(s, r, c, patch) {
    var key = k(r, c);
    var cell = s.cells.get(key) || { value: "" };
    Object.keys(patch).forEach(function (p) {
      cell[p] = patch[p];
    });
    if ("formula" in patch && patch.formula === undefined) delete cell.formula;
    var empty =
      (cell.value === "" || cell.value === undefined) &&
      cell.formula === undefined &&
      !cell.numberFormat &&
      !cell.format;
    if (empty) s.cells.delete(key);
    else s.cells.set(key, cell);
    if (!("formula" in patch)) return;
    if (typeof cell.formula === "string") {
      // Every formula is calculated by the engine (KAISHA calls, Excel's functions, operators).
      evaluateAnchor(s, r, c);
    } else {
      var old = s.anchors.get(key);
      if (old && old.cancel) old.cancel();
      s.anchors.delete(key);
    }
    relayout(s);
    // A typed value (or a cleared cell) changes what formulas reading it calculate.
    if (typeof cell.formula !== "string")
      recalcDependents(s, { top: r, left: c, bottom: r, right: c }, 0, key);
  }
  function isTextCell(s, r, c) {
    var own = s.cells.get(k(r, c));
    return ((own && own.numberFormat) || s.colFormats.get(c)) === "@";
  }
  /**
   * STANDIN.md "Range.values and text": Microsoft's reference for Range.values says a string that
   * starts with "+", "-" or "=" is interpreted as a formula; a cell formatted as Text ("@") keeps it
   * as text. "+x" and "-x" are stored as "=+x" / "=-x" (what Excel's formula bar shows), so the
   * cell no longer reads back as the string written, which is what the tests watch for.
   */
  function setValue(s, r, c, v) {
    // STANDIN.md "Range.values and text": a leading apostrophe is Excel's escape for text; the
    // value keeps the rest (office-js#6687: Range.formulas reads such a cell without it).
    if (typeof v === "string" && v.charAt(0) === "'")
      return writeCell(s, r, c, { value: v.slice(1), formula: undefined });
    if (typeof v === "string" && /^[=+-]/.test(v) && !isTextCell(s, r, c))
      return writeCell(s, r, c, { formula: v.charAt(0) === "=" ? v : "=" + v, value: "" });
    writeCell(s, r, c, { value: v === null || v === undefined ? "" : v, formula: undefined });
  }

  // ---------- proxies with load/sync ----------
  var syncGen = 0;
  function Loadable(ctx) {
    this._ctx = ctx;
    this._pending = [];
    this._loaded = new Set();
    this._born = syncGen;
    ctx._objects.push(this);
  }
  Loadable.prototype.load = function (props) {
    var list = [];
    if (typeof props === "string") list = props.split(",");
    else if (Array.isArray(props)) list = props;
    else if (props && typeof props === "object") list = Object.keys(props);
    else list = ["*"];
    var self = this;
    list.forEach(function (p) {
      self._pending.push(p.trim().split("/")[0]);
    });
    return this;
  };
  Loadable.prototype._need = function (prop) {
    if (!this._loaded.has(prop) && !this._loaded.has("*")) {
      throw excelError(
        "PropertyNotLoaded",
        "The property '" +
          prop +
          "' is not available. Before reading the property's value, call the load method on the containing object and call \"context.sync()\" on the associated request context.",
      );
    }
  };
  Loadable.prototype._nullCheck = function () {
    if (this._born === syncGen) {
      throw excelError("PropertyNotLoaded", "isNullObject is not available before context.sync()");
    }
  };
  function loadableProp(proto, prop, getter) {
    Object.defineProperty(proto, prop, {
      get: function () {
        this._need(prop);
        return getter.call(this);
      },
      configurable: true,
    });
  }

  // Range
  function Range(ctx, sheet, rect, isNull) {
    Loadable.call(this, ctx);
    this._sheet = sheet;
    this._rect = rect;
    this._isNull = !!isNull;
    var self = this;
    this.format = {
      font: {},
      autofitColumns: function () {
        log.push("autofit " + self._addr());
      },
      set columnWidth(w) {
        log.push("columnWidth " + self._addr() + " " + w);
      },
    };
    ["bold", "italic", "color", "size", "name"].forEach(function (p) {
      Object.defineProperty(self.format.font, p, {
        set: function (v) {
          self._each(function (r, c) {
            var cell = sheet.cells.get(k(r, c)) || { value: "" };
            cell.format = cell.format || {};
            cell.format[p] = v;
            sheet.cells.set(k(r, c), cell);
          });
        },
        get: function () {
          return undefined;
        },
      });
    });
  }
  Range.prototype = Object.create(Loadable.prototype);
  /**
   * STANDIN.md "Load/sync": a loaded content property is a copy of what the cells held where the
   * load stands in the batch (the stand-in runs each command as it is queued, so that is now), not
   * a live view: a load queued before a write sees the content before it, and a value loaded in one
   * batch does not show what was typed after it.
   */
  var CONTENT = ["values", "formulas", "numberFormat", "valuesAsJson", "text"];
  Range.prototype.load = function (props) {
    var before = this._pending.length;
    Loadable.prototype.load.call(this, props);
    var self = this;
    var asked = this._pending.slice(before);
    this._snap = this._snap || {};
    CONTENT.forEach(function (p) {
      if (asked.indexOf(p) >= 0 || asked.indexOf("*") >= 0) self._snap[p] = readers[p].call(self);
    });
    return this;
  };
  /** The content property `p`: its loaded copy, or (written through this proxy since) the cells. */
  Range.prototype._content = function (p) {
    this._need(p);
    return this._snap && p in this._snap ? this._snap[p] : readers[p].call(this);
  };
  Range.prototype._wrote = function (p) {
    if (this._snap) delete this._snap[p];
  };
  Range.prototype._addr = function () {
    return quoteSheet(this._sheet.name) + "!" + rectAddress(this._rect);
  };
  Range.prototype._rows = function () {
    return this._rect.bottom - this._rect.top + 1;
  };
  Range.prototype._cols = function () {
    return this._rect.right - this._rect.left + 1;
  };
  Range.prototype._each = function (fn) {
    if (this._rows() * this._cols() > 2000000)
      throw excelError("InvalidArgument", "Range too large for the stand-in: " + this._addr());
    for (var r = this._rect.top; r <= this._rect.bottom; r++)
      for (var c = this._rect.left; c <= this._rect.right; c++) fn(r, c);
  };
  Range.prototype._matrix = function (fn) {
    var out = [];
    for (var r = this._rect.top; r <= this._rect.bottom; r++) {
      var row = [];
      for (var c = this._rect.left; c <= this._rect.right; c++) row.push(fn(r, c));
      out.push(row);
    }
    return out;
  };
  Range.prototype._assign = function (name, value, apply) {
    var rows = this._rows(),
      cols = this._cols();
    var whole = this._rect.bottom === MAX_ROWS - 1 || this._rect.right === MAX_COLS - 1;
    if (!Array.isArray(value)) value = [[value]];
    var single = value.length === 1 && value[0].length === 1;
    if (
      !single &&
      (value.length !== rows ||
        value.some(function (row) {
          return row.length !== cols;
        }))
    ) {
      throw excelError(
        "InvalidArgument",
        "The number of rows or columns in the input array doesn't match the size or dimensions of the range (" +
          name +
          " on " +
          this._addr() +
          ").",
      );
    }
    if (whole) {
      if (name !== "numberFormat")
        throw excelError(
          "InvalidArgument",
          "The stand-in supports only numberFormat on whole columns",
        );
      for (var c = this._rect.left; c <= this._rect.right; c++)
        this._sheet.colFormats.set(c, value[0][0]);
      return;
    }
    var top = this._rect.top,
      left = this._rect.left;
    this._each(function (r, c) {
      apply(r, c, single ? value[0][0] : value[r - top][c - left]);
    });
  };
  // What each content property reads from the cells (Range.load copies it; see _content).
  var readers = {
    values: function () {
      var s = this._sheet;
      return this._matrix(function (r, c) {
        return cellValue(s, r, c).value;
      });
    },
    formulas: function () {
      var s = this._sheet;
      return this._matrix(function (r, c) {
        var own = s.cells.get(k(r, c));
        if (own && typeof own.formula === "string") return own.formula;
        return cellValue(s, r, c).value;
      });
    },
    numberFormat: function () {
      var s = this._sheet;
      return this._matrix(function (r, c) {
        var own = s.cells.get(k(r, c));
        var v = cellValue(s, r, c);
        return shownOwnFormat(own) || v.numberFormat || s.colFormats.get(c) || "General";
      });
    },
    valuesAsJson: function () {
      var s = this._sheet;
      return this._matrix(function (r, c) {
        var v = cellValue(s, r, c);
        if (v.error)
          return { type: "Error", basicType: "Error", basicValue: v.value, errorType: v.error };
        if (typeof v.value === "number")
          return { type: "Double", basicType: "Double", basicValue: v.value };
        if (typeof v.value === "boolean")
          return { type: "Boolean", basicType: "Boolean", basicValue: v.value };
        if (v.value === "") return { type: "Empty", basicType: "Empty", basicValue: "" };
        return { type: "String", basicType: "String", basicValue: v.value };
      });
    },
    // STANDIN.md "General": Range.text is what the cell shows (11-character General, formats).
    text: function () {
      var s = this._sheet;
      return this._matrix(function (r, c) {
        var v = cellValue(s, r, c);
        if (typeof v.value !== "number") return shownText(v.value);
        var own = s.cells.get(k(r, c));
        return formatNumber(v.value, shownOwnFormat(own) || v.numberFormat || s.colFormats.get(c));
      });
    },
  };
  Object.defineProperty(Range.prototype, "values", {
    get: function () {
      return this._content("values");
    },
    set: function (v) {
      var s = this._sheet;
      this._wrote("values");
      this._assign("values", v, function (r, c, x) {
        setValue(s, r, c, x);
      });
    },
  });
  Object.defineProperty(Range.prototype, "formulas", {
    get: function () {
      return this._content("formulas");
    },
    set: function (v) {
      var s = this._sheet;
      this._wrote("formulas");
      this._assign("formulas", v, function (r, c, x) {
        // Range.formulas follows the same rule as values: a Text cell keeps even "=..." as text.
        setValue(s, r, c, x);
      });
    },
  });
  Object.defineProperty(Range.prototype, "numberFormat", {
    get: function () {
      return this._content("numberFormat");
    },
    set: function (v) {
      var s = this._sheet;
      this._wrote("numberFormat");
      this._assign("numberFormat", v, function (r, c, x) {
        writeCell(s, r, c, { numberFormat: x });
      });
    },
  });
  loadableProp(Range.prototype, "address", function () {
    return this._addr();
  });
  loadableProp(Range.prototype, "rowCount", function () {
    return this._rows();
  });
  loadableProp(Range.prototype, "columnCount", function () {
    return this._cols();
  });
  loadableProp(Range.prototype, "rowIndex", function () {
    return this._rect.top;
  });
  loadableProp(Range.prototype, "columnIndex", function () {
    return this._rect.left;
  });
  ["valuesAsJson", "text"].forEach(function (p) {
    Object.defineProperty(Range.prototype, p, {
      get: function () {
        return this._content(p);
      },
    });
  });
  Object.defineProperty(Range.prototype, "isNullObject", {
    get: function () {
      this._nullCheck();
      return this._isNull;
    },
  });
  Range.prototype.getCell = function (r, c) {
    return new Range(this._ctx, this._sheet, {
      top: this._rect.top + r,
      left: this._rect.left + c,
      bottom: this._rect.top + r,
      right: this._rect.left + c,
    });
  };
  Range.prototype.getResizedRange = function (dr, dc) {
    return new Range(this._ctx, this._sheet, {
      top: this._rect.top,
      left: this._rect.left,
      bottom: this._rect.bottom + dr,
      right: this._rect.right + dc,
    });
  };
  Range.prototype.getOffsetRange = function (dr, dc) {
    var x = this._rect;
    return new Range(this._ctx, this._sheet, {
      top: x.top + dr,
      left: x.left + dc,
      bottom: x.bottom + dr,
      right: x.right + dc,
    });
  };
  Range.prototype.getRow = function (i) {
    return new Range(this._ctx, this._sheet, {
      top: this._rect.top + i,
      bottom: this._rect.top + i,
      left: this._rect.left,
      right: this._rect.right,
    });
  };
  Range.prototype.getUsedRangeOrNullObject = function (valuesOnly) {
    var s = this._sheet,
      x = this._rect;
    var box = usedBox(s, !!valuesOnly, x);
    return new Range(this._ctx, s, box || x, !box);
  };
  Range.prototype.getSpillingToRangeOrNullObject = function () {
    var a = this._sheet.anchors.get(k(this._rect.top, this._rect.left));
    if (!a || !a.result || a.blocked) return new Range(this._ctx, this._sheet, this._rect, true);
    return new Range(this._ctx, this._sheet, {
      top: a.row,
      left: a.col,
      bottom: a.row + a.result.length - 1,
      right: a.col + a.result[0].length - 1,
    });
  };
  Range.prototype.clear = function (applyTo) {
    var s = this._sheet;
    var what = applyTo || "All";
    var whole = this._rect.bottom === MAX_ROWS - 1 || this._rect.right === MAX_COLS - 1;
    var x = this._rect;
    var keys = [];
    s.cells.forEach(function (_cell, key) {
      var rc = key.split(",").map(Number);
      if (rc[0] >= x.top && rc[0] <= x.bottom && rc[1] >= x.left && rc[1] <= x.right) keys.push(rc);
    });
    keys.forEach(function (rc) {
      if (what === "Formats")
        writeCell(s, rc[0], rc[1], { numberFormat: undefined, format: undefined });
      else if (what === "Contents") writeCell(s, rc[0], rc[1], { value: "", formula: undefined });
      else {
        writeCell(s, rc[0], rc[1], { value: "", formula: undefined });
        s.cells.delete(k(rc[0], rc[1]));
      }
    });
    if (whole && what !== "Contents")
      for (var c = x.left; c <= x.right; c++) s.colFormats.delete(c);
    relayout(s);
  };
  Range.prototype.select = function () {
    selection = { sheet: this._sheet.name, address: rectAddress(this._rect) };
  };

  function usedBox(s, valuesOnly, within) {
    var box;
    function add(r, c) {
      if (within && (r < within.top || r > within.bottom || c < within.left || c > within.right))
        return;
      if (!box) box = { top: r, bottom: r, left: c, right: c };
      else {
        box.top = Math.min(box.top, r);
        box.bottom = Math.max(box.bottom, r);
        box.left = Math.min(box.left, c);
        box.right = Math.max(box.right, c);
      }
    }
    s.cells.forEach(function (cell, key) {
      var rc = key.split(",").map(Number);
      if (
        !valuesOnly ||
        cell.formula !== undefined ||
        (cell.value !== "" && cell.value !== undefined)
      )
        add(rc[0], rc[1]);
    });
    s.anchors.forEach(function (a) {
      if (!a.result || a.blocked) return;
      add(a.row + a.result.length - 1, a.col + a.result[0].length - 1);
    });
    return box;
  }

  // Tables
  function Table(ctx, t, isNull) {
    Loadable.call(this, ctx);
    this._t = t;
    this._isNull = !!isNull;
  }
  Table.prototype = Object.create(Loadable.prototype);
  Object.defineProperty(Table.prototype, "name", {
    get: function () {
      this._need("name");
      return this._t.name;
    },
    set: function (v) {
      var all = allTables();
      if (
        all.some(function (t) {
          return t !== this._t && t.name === v;
        }, this)
      )
        throw excelError("InvalidArgument", "A table named " + v + " already exists");
      this._t.name = v;
    },
  });
  Object.defineProperty(Table.prototype, "isNullObject", {
    get: function () {
      this._nullCheck();
      return this._isNull;
    },
  });
  Table.prototype.getRange = function () {
    return new Range(this._ctx, this._t.sheet, this._t.rect);
  };
  Table.prototype.getDataBodyRange = function () {
    var x = this._t.rect;
    return new Range(this._ctx, this._t.sheet, {
      top: x.top + 1,
      bottom: Math.max(x.top + 1, x.bottom),
      left: x.left,
      right: x.right,
    });
  };
  Table.prototype.getHeaderRowRange = function () {
    var x = this._t.rect;
    return new Range(this._ctx, this._t.sheet, {
      top: x.top,
      bottom: x.top,
      left: x.left,
      right: x.right,
    });
  };
  Table.prototype.delete = function () {
    var s = this._t.sheet;
    s.tables = s.tables.filter(function (t) {
      return t !== this._t;
    }, this);
  };
  function allTables() {
    var out = [];
    sheets.forEach(function (s) {
      out = out.concat(s.tables);
    });
    return out;
  }
  function TableCollection(ctx, sheet) {
    Loadable.call(this, ctx);
    this._sheet = sheet;
  }
  TableCollection.prototype = Object.create(Loadable.prototype);
  TableCollection.prototype._list = function () {
    return this._sheet ? this._sheet.tables : allTables();
  };
  loadableProp(TableCollection.prototype, "items", function () {
    var ctx = this._ctx;
    return this._list().map(function (t) {
      var x = new Table(ctx, t);
      x._loaded.add("*");
      return x;
    });
  });
  TableCollection.prototype.getItem = function (name) {
    var t = this._list().find(function (x) {
      return x.name === name;
    });
    if (!t) throw excelError("ItemNotFound", "The requested resource doesn't exist: table " + name);
    return new Table(this._ctx, t);
  };
  TableCollection.prototype.getItemOrNullObject = function (name) {
    var t = this._list().find(function (x) {
      return x.name === name;
    });
    return new Table(
      this._ctx,
      t || { name: name, sheet: activeSheet, rect: { top: 0, left: 0, bottom: 0, right: 0 } },
      !t,
    );
  };
  TableCollection.prototype.add = function (address, hasHeaders) {
    var ref = parseRef(typeof address === "string" ? address : address._addr());
    var sheet = this._sheet || (ref.sheet ? sheetOrThrow(ref.sheet) : activeSheet);
    var overlapping = allTables().some(function (t) {
      return (
        t.sheet === sheet &&
        !(
          ref.bottom < t.rect.top ||
          ref.top > t.rect.bottom ||
          ref.right < t.rect.left ||
          ref.left > t.rect.right
        )
      );
    });
    if (overlapping) throw excelError("InvalidArgument", "A table can't overlap another table.");
    var t = {
      name: "Table" + ++tableSeq,
      sheet: sheet,
      rect: { top: ref.top, bottom: ref.bottom, left: ref.left, right: ref.right },
      hasHeaders: !!hasHeaders,
    };
    sheet.tables.push(t);
    relayout(sheet);
    return new Table(this._ctx, t);
  };

  // Charts
  function Chart(ctx, ch) {
    Loadable.call(this, ctx);
    this._c = ch;
    var self = this;
    this.title = {
      // ChartTitle.setFormula (ExcelApi 1.7): the title shows the referenced cell, as it changes.
      setFormula: function (formula) {
        ch.titleFormula = String(formula).replace(/^=/, "");
      },
    };
    Object.defineProperty(this.title, "text", {
      get: function () {
        return ch.title;
      },
      set: function (v) {
        ch.title = v;
        ch.titleFormula = undefined;
      },
    });
    this.legend = {};
    Object.defineProperty(this.legend, "position", {
      get: function () {
        return ch.legend;
      },
      set: function (v) {
        ch.legend = v;
      },
    });
    this.axes = { categoryAxis: {} };
    Object.defineProperty(this.axes.categoryAxis, "reversePlotOrder", {
      get: function () {
        return ch.reversed;
      },
      set: function (v) {
        ch.reversed = v;
      },
    });
    function series(sr) {
      var o = {
        setXAxisValues: function (range) {
          sr.x = range._addr();
        },
        setValues: function (range) {
          sr.values = range._addr();
        },
        delete: function () {
          ch.series = ch.series.filter(function (q) {
            return q !== sr;
          });
        },
      };
      Object.defineProperty(o, "name", {
        get: function () {
          return sr.name;
        },
        set: function (v) {
          sr.name = v;
        },
      });
      return o;
    }
    this.series = {
      getItemAt: function (i) {
        if (!ch.series[i]) throw excelError("ItemNotFound", "No series " + i);
        return series(ch.series[i]);
      },
      add: function (name) {
        var sr = { name: name };
        ch.series.push(sr);
        return series(sr);
      },
    };
    this.setPosition = function (start) {
      ch.position = typeof start === "string" ? start : start._addr();
    };
    this.delete = function () {
      self._sheetRef.charts = self._sheetRef.charts.filter(function (q) {
        return q !== ch;
      });
    };
  }
  Chart.prototype = Object.create(Loadable.prototype);
  Object.defineProperty(Chart.prototype, "name", {
    get: function () {
      this._need("name");
      return this._c.name;
    },
    set: function (v) {
      this._c.name = v;
    },
  });
  function ChartCollection(ctx, sheet) {
    Loadable.call(this, ctx);
    this._sheet = sheet;
  }
  ChartCollection.prototype = Object.create(Loadable.prototype);
  loadableProp(ChartCollection.prototype, "items", function () {
    var ctx = this._ctx,
      s = this._sheet;
    return s.charts.map(function (ch) {
      var c = new Chart(ctx, ch);
      c._sheetRef = s;
      c._loaded.add("*");
      return c;
    });
  });
  ChartCollection.prototype.add = function (type, source, seriesBy) {
    var ch = {
      name: "Chart " + ++chartSeq,
      type: type,
      source: source._addr(),
      seriesBy: seriesBy,
      series: [{ name: "Series1", values: source._addr() }],
      title: "",
    };
    this._sheet.charts.push(ch);
    var c = new Chart(this._ctx, ch);
    c._sheetRef = this._sheet;
    return c;
  };

  // Worksheets
  function Worksheet(ctx, s, isNull) {
    Loadable.call(this, ctx);
    this._s = s;
    this._isNull = !!isNull;
    this.tables = new TableCollection(ctx, s);
    this.charts = new ChartCollection(ctx, s);
  }
  Worksheet.prototype = Object.create(Loadable.prototype);
  Object.defineProperty(Worksheet.prototype, "name", {
    get: function () {
      this._need("name");
      return this._s.name;
    },
    set: function (v) {
      this._s.name = v;
    },
  });
  Object.defineProperty(Worksheet.prototype, "visibility", {
    get: function () {
      this._need("visibility");
      return this._s.visibility;
    },
    set: function (v) {
      this._s.visibility = v;
    },
  });
  Object.defineProperty(Worksheet.prototype, "isNullObject", {
    get: function () {
      this._nullCheck();
      return this._isNull;
    },
  });
  Worksheet.prototype.getRange = function (address) {
    if (address === undefined)
      return new Range(this._ctx, this._s, {
        top: 0,
        left: 0,
        bottom: MAX_ROWS - 1,
        right: MAX_COLS - 1,
      });
    var ref = parseRef(address);
    var s = ref.sheet ? sheetOrThrow(ref.sheet) : this._s;
    return new Range(this._ctx, s, {
      top: ref.top,
      left: ref.left,
      bottom: ref.bottom,
      right: ref.right,
    });
  };
  Worksheet.prototype.getRangeByIndexes = function (r, c, rows, cols) {
    return new Range(this._ctx, this._s, {
      top: r,
      left: c,
      bottom: r + rows - 1,
      right: c + cols - 1,
    });
  };
  Worksheet.prototype.getUsedRangeOrNullObject = function (valuesOnly) {
    var box = usedBox(this._s, !!valuesOnly);
    return new Range(this._ctx, this._s, box || { top: 0, left: 0, bottom: 0, right: 0 }, !box);
  };
  Worksheet.prototype.getUsedRange = function (valuesOnly) {
    var box = usedBox(this._s, !!valuesOnly);
    return new Range(this._ctx, this._s, box || { top: 0, left: 0, bottom: 0, right: 0 });
  };
  Worksheet.prototype.activate = function () {
    activeSheet = this._s;
    selection = { sheet: this._s.name, address: "A1" };
  };
  Worksheet.prototype.delete = function () {
    var s = this._s;
    sheets = sheets.filter(function (x) {
      return x !== s;
    });
    if (activeSheet === s) activeSheet = sheets[0];
  };

  function WorksheetCollection(ctx) {
    Loadable.call(this, ctx);
  }
  WorksheetCollection.prototype = Object.create(Loadable.prototype);
  loadableProp(WorksheetCollection.prototype, "items", function () {
    var ctx = this._ctx;
    return sheets.map(function (s) {
      var w = new Worksheet(ctx, s);
      w._loaded.add("*");
      return w;
    });
  });
  WorksheetCollection.prototype.getActiveWorksheet = function () {
    return new Worksheet(this._ctx, activeSheet);
  };
  WorksheetCollection.prototype.getItem = function (name) {
    return new Worksheet(this._ctx, sheetOrThrow(name));
  };
  WorksheetCollection.prototype.getItemOrNullObject = function (name) {
    var s = findSheet(name);
    return new Worksheet(
      this._ctx,
      s || {
        name: name,
        cells: new Map(),
        colFormats: new Map(),
        tables: [],
        charts: [],
        anchors: new Map(),
      },
      !s,
    );
  };
  WorksheetCollection.prototype.add = function (name) {
    var n = name || "Sheet" + (sheets.length + 1);
    if (findSheet(n))
      throw excelError("ItemAlreadyExists", "A sheet named " + n + " already exists");
    return new Worksheet(this._ctx, newSheet(n));
  };

  function RequestContext() {
    var ctx = this;
    this._objects = [];
    this.workbook = {
      worksheets: new WorksheetCollection(ctx),
      tables: new TableCollection(ctx, undefined),
      getSelectedRange: function () {
        var s = sheetOrThrow(selection.sheet);
        var ref = parseRef(selection.address);
        return new Range(ctx, s, {
          top: ref.top,
          left: ref.left,
          bottom: ref.bottom,
          right: ref.right,
        });
      },
      getActiveCell: function () {
        var s = sheetOrThrow(selection.sheet);
        var ref = parseRef(selection.address);
        return new Range(ctx, s, {
          top: ref.top,
          left: ref.left,
          bottom: ref.top,
          right: ref.left,
        });
      },
      application: {
        calculate: function (type) {
          log.push("calculate " + type);
          recalcAll();
        },
        suspendApiCalculationUntilNextSync: function () {},
      },
    };
    this.sync = function () {
      syncGen++;
      ctx._objects.forEach(function (o) {
        o._pending.forEach(function (p) {
          o._loaded.add(p);
        });
        o._pending = [];
      });
      return new Promise(function (resolve) {
        setTimeout(function () {
          // The analyst's typing a test queued for after this sync (enterAfterSync).
          typingAfterSync.splice(0).forEach(function (typing) {
            typing();
          });
          resolve();
        }, 0);
      });
    };
  }

  window.Excel = {
    run: function (batch) {
      var ctx = new RequestContext();
      return Promise.resolve().then(function () {
        return batch(ctx);
      });
    },
    RequestContext: RequestContext,
  };

  // ---------- hooks for the tests ----------
  var typingAfterSync = [];
  window.__excelStandIn = {
    select: function (sheet, address) {
      sheetOrThrow(sheet);
      activeSheet = sheetOrThrow(sheet);
      selection = { sheet: sheet, address: address };
    },
    /** Types into a cell as a user would (formula or value). */
    enter: function (sheet, address, text) {
      var s = sheetOrThrow(sheet);
      var ref = parseRef(address);
      // Typed digits are a number unless the cell is formatted as Text ("@"), as in Excel.
      var own = s.cells.get(k(ref.top, ref.left));
      var format = (own && own.numberFormat) || s.colFormats.get(ref.left);
      var typed = readCellInput(String(text));
      if (typed.kind === "constant" && typeof typed.value === "number" && format !== "@")
        return setValue(s, ref.top, ref.left, typed.value);
      setValue(s, ref.top, ref.left, text);
    },
    /**
     * The analyst types into a cell (as `enter`) right after the pane's next sync, before its next
     * batch runs: what happens when an Excel batch is held while a cell is being edited.
     */
    enterAfterSync: function (sheet, address, text) {
      sheetOrThrow(sheet);
      typingAfterSync.push(function () {
        window.__excelStandIn.enter(sheet, address, text);
      });
    },
    /**
     * Calculates a formula as Excel's formula value preview does (invocation.isInValuePreview
     * true) without writing it anywhere; resolves to its cells.
     */
    preview: function (sheet, address, formula) {
      var s = sheetOrThrow(sheet);
      var ref = parseRef(address);
      return metadata().then(function (meta) {
        return evaluateStandInFormula({
          formula: formula,
          at: { row: ref.top, col: ref.left },
          sheetName: s.name,
          metadata: meta.functions,
          implementations: registry,
          cellAt: function (at) {
            return cellValue(s, at.row, at.col);
          },
          signal: new AbortController().signal,
          dataTypeArguments: dataTypeMode(meta),
          emptyArgument: cfg.emptyArgument === "zero" ? "zero" : "null",
          valuePreview: true,
        });
      });
    },
    /**
     * Adds a function for a test (e.g. one that reports the arguments it received): its
     * functions.json-style metadata and implementation, callable as =KAISHA.<ID>(…).
     */
    register: function (meta, fn) {
      return metadata().then(function (m) {
        m.functions.set(meta.id.toUpperCase(), meta);
        registry.set(meta.id.toUpperCase(), fn);
      });
    },
    /** Resolves when every KAISHA evaluation started so far has settled. */
    whenIdle: function () {
      return Promise.all(Array.from(pending)).then(function () {
        return pending.size ? window.__excelStandIn.whenIdle() : undefined;
      });
    },
    /** A plain snapshot of a block of cells. */
    read: function (sheet, address) {
      var s = sheetOrThrow(sheet);
      var ref = parseRef(address);
      var out = [];
      for (var r = ref.top; r <= ref.bottom; r++) {
        var row = [];
        for (var c = ref.left; c <= ref.right; c++) {
          var own = s.cells.get(k(r, c));
          var v = cellValue(s, r, c);
          var shownFormat =
            shownOwnFormat(own) || v.numberFormat || s.colFormats.get(c) || "General";
          row.push({
            value: v.value,
            formula: own && own.formula,
            numberFormat: shownFormat,
            // What the cell shows (Range.text): a number in its number format.
            text:
              typeof v.value === "number" ? formatNumber(v.value, shownFormat) : shownText(v.value),
            bold: !!(own && own.format && own.format.bold),
            error: v.error,
            message: v.message,
          });
        }
        out.push(row);
      }
      return out;
    },
    sheets: function () {
      return sheets.map(function (s) {
        return {
          name: s.name,
          visibility: s.visibility,
          used: (function () {
            var b = usedBox(s, true);
            return b ? rectAddress(b) : null;
          })(),
          tables: s.tables.map(function (t) {
            return { name: t.name, address: rectAddress(t.rect) };
          }),
          charts: s.charts.map(function (c) {
            return {
              name: c.name,
              type: c.type,
              title: c.titleFormula ? titleFromCell(s, c.titleFormula) : c.title,
              series: c.series.map(function (q) {
                return q.name;
              }),
            };
          }),
        };
      });
    },
    activeSheet: function () {
      return activeSheet.name;
    },
    calculations: function () {
      return calcCount;
    },
    log: log,
    functions: function () {
      return Array.from(registry.keys());
    },
  };
})(typeof window !== "undefined" ? window.__excelStandInConfig : undefined);
