// One term per concept: the pane's message tables, the Japanese function help's source table and
// the help page never use a variant the glossary bans, and the help page names every concept.
import * as fs from "node:fs";
import * as path from "node:path";
import { GLOSSARY, type GlossaryEntry } from "../../taskpane/i18n/glossary";
import { en } from "../../taskpane/i18n/en";
import { ja } from "../../taskpane/i18n/ja";

const root = path.join(__dirname, "../..");
const read = (file: string): string => fs.readFileSync(path.join(root, file), "utf8");

const entries = Object.entries(GLOSSARY) as [string, GlossaryEntry][];

/** Every string in a JSON value (descriptions, parameter names). */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringsOf);
  return [];
}

/** "where: variant (concept → term)" for each banned variant found in `texts`. */
function offences(
  where: string,
  texts: readonly string[],
  banned: (e: GlossaryEntry) => readonly string[],
  term: (e: GlossaryEntry) => string,
): string[] {
  const found: string[] = [];
  for (const [concept, entry] of entries) {
    for (const variant of banned(entry)) {
      for (const text of texts) {
        if (text.includes(variant))
          found.push(
            `${where}: "${variant}" (${concept}: say "${term(entry)}") in "${text.slice(0, 80)}"`,
          );
      }
    }
  }
  return found;
}

const notJa = (e: GlossaryEntry) => e.notJa;
const notEn = (e: GlossaryEntry) => e.notEn;
const termJa = (e: GlossaryEntry) => e.ja;
const termEn = (e: GlossaryEntry) => e.en;

test("glossary: no term is also banned, and no variant is banned for two concepts", () => {
  const banned = entries.flatMap(([, e]) => [...e.notJa, ...e.notEn]);
  expect(new Set(banned).size).toBe(banned.length);
  for (const [, e] of entries) {
    expect(e.notJa).not.toContain(e.ja);
    expect(e.notEn).not.toContain(e.en);
  }
});

test("glossary: the pane's Japanese messages (ja.ts) use only the glossary's terms", () => {
  expect(offences("ja.ts", Object.values(ja), notJa, termJa)).toEqual([]);
});

test("glossary: the pane's English messages (en.ts) use only the glossary's terms", () => {
  const texts = Object.values(en) as string[];
  expect(offences("en.ts", texts, notEn, termEn)).toEqual([]);
  // Japanese examples in English messages (売上高) follow the Japanese terms too.
  expect(offences("en.ts", texts, notJa, termJa)).toEqual([]);
});

test("glossary: the Japanese function help (scripts/functions-ja-table.json, functions-ja.json's source) uses only the glossary's terms", () => {
  const table = JSON.parse(read("scripts/functions-ja-table.json")) as Record<string, unknown> & {
    $parameterNames: Record<string, string>;
  };
  expect(offences("functions-ja-table.json", stringsOf(table), notJa, termJa)).toEqual([]);
  // SCREEN's as_of is named and described by one word, the one the pane's screening form uses.
  expect(table.$parameterNames["as_of"]).toBe(GLOSSARY.asOf.ja);
  expect(ja.asOf.startsWith(GLOSSARY.asOf.ja)).toBe(true);
});

/**
 * The user-facing label tables outside the message files: the words written on the sheets (row,
 * column and unit labels, notes) and the English labels of imported tables' columns and of the
 * builder's items. Their string literals are what a cell or a list shows.
 */
const LABEL_FILES = [
  "taskpane/state/sheet-labels.ts",
  "taskpane/state/company-sheet-plan.ts",
  "taskpane/state/peer-sheet-plan.ts",
  "taskpane/state/english-labels.ts",
  "taskpane/state/metric-labels.ts",
] as const;

/** The double-quoted string literals of a TypeScript file (comments are not what users read). */
function literalsOf(file: string): string[] {
  return [...read(file).matchAll(/"((?:[^"\\\n]|\\.)*)"/g)].map((m) => m[1] ?? "");
}

test("glossary: the sheets' and tables' label files use only the glossary's terms, in both languages", () => {
  const found = LABEL_FILES.flatMap((file) => {
    const texts = literalsOf(file);
    return [...offences(file, texts, notJa, termJa), ...offences(file, texts, notEn, termEn)];
  });
  expect(found).toEqual([]);
  // The sheets' titles are the pane's names for them.
  expect(literalsOf("taskpane/state/sheet-labels.ts")).toEqual(
    expect.arrayContaining([
      GLOSSARY.compsSheet.ja,
      GLOSSARY.compsSheet.en,
      GLOSSARY.companySheet.ja,
      GLOSSARY.companySheet.en,
      GLOSSARY.millionYen.en,
    ]),
  );
});

test("glossary: the help page uses only the glossary's terms, in both languages", () => {
  const html = read("assets/help.html");
  expect(offences("help.html", [html], notJa, termJa)).toEqual([]);
  expect(offences("help.html", [html], notEn, termEn)).toEqual([]);
});

test("glossary: the help page names every pane concept by its term in both languages", () => {
  const html = read("assets/help.html");
  const concepts = [
    "refreshAll",
    "companySheet",
    "compsSheet",
    "builder",
    "problems",
    "backgroundUpdates",
    "freeze",
    "apiKey",
  ] as const;
  const missing = concepts.flatMap((c) => [
    ...(html.includes(GLOSSARY[c].ja) ? [] : [`${c} (ja: ${GLOSSARY[c].ja})`]),
    ...(html.includes(GLOSSARY[c].en) ? [] : [`${c} (en: ${GLOSSARY[c].en})`]),
  ]);
  expect(missing).toEqual([]);
});
