// Company sheet: one action builds card, 10-year FINANCIAL summary, valuation history and price chart.

import { useState } from "react";
import { Button, Field, Input, Spinner, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useTask } from "../hooks/use-task";
import { errorText, UserMessageError } from "../error-text";
import { EXCEL_IMPORT } from "../excel-import";
import { buildCompanySheet } from "../excel/company-sheet";
import { insertChart } from "../excel/chart";
import { chartRequest } from "../chart-plan";
import { companyFiscalYears, companySheetLayout } from "../state/company-sheet-plan";
import { companyPeers, peerSheetLayout } from "../state/peer-sheet-plan";
import { isEdinetCode, normalizeInput } from "../state/datasets";
import { runImport } from "../state/import-flow";
import { prop } from "../state/pane-client";
import type { ColumnSpec } from "../state/table-data";
import { StatusMessage } from "./status-message";
import { CompanyPicker } from "./company-picker";

/** One year back from today, as YYYY-MM-DD (the price chart's window). */
function oneYearAgo(now: Date): string {
  const d = new Date(Date.UTC(now.getUTCFullYear() - 1, now.getUTCMonth(), now.getUTCDate()));
  return d.toISOString().slice(0, 10);
}

export function CompanySection() {
  const { t, session, excel, bump } = usePane();
  const task = useTask(t);
  const [code, setCode] = useState("");
  const [years, setYears] = useState("10");

  const build = () =>
    task.run(async (signal) => {
      const c = normalizeInput(code).toUpperCase();
      if (!/^([0-9A-Z]{4,5}|[EG]\d{5})$/.test(c)) {
        throw new UserMessageError(t("paramFormat", { param: t("companyCode") }));
      }
      // VALUATION and the price chart need a security code: an EDINET code is resolved first.
      const securityCode = isEdinetCode(c) ? await securityCodeOf(c) : c;
      const fiscalYears = await companyFiscalYears(
        session.client(),
        securityCode,
        Number(years) || 10,
        { signal },
      );
      if (fiscalYears.length === 0)
        throw new UserMessageError(t("companyNoYears", { code: securityCode }));
      const layout = companySheetLayout(securityCode, fiscalYears, t.lang);
      const sheet = await buildCompanySheet(layout.plan);
      bump();
      try {
        const client = session.client();
        let columns: ColumnSpec[] = [];
        const written = await runImport(
          {
            dataset: "prices",
            params: { code: securityCode, from: oneYearAgo(new Date()), to: "" },
            anchor: { sheet, address: layout.pricesAnchor },
            tableName: `${sheet}_prices`,
          },
          {
            client,
            lang: t.lang,
            headers: session.settings.headerLanguage,
            signal,
            excel: {
              ...EXCEL_IMPORT,
              writeTable: (table, o) => {
                columns = table.columns;
                return EXCEL_IMPORT.writeTable(table, o);
              },
            },
          },
        );
        const request = chartRequest("prices", written.name, columns, securityCode, t);
        if (request) await insertChart(request);
      } catch (err) {
        return {
          intent: "warning",
          text: t("companyPricesFailed", { message: errorText(err, t) }),
          data: { sheet },
        };
      }
      return { intent: "success", text: t("companyBuilt", { sheet }), data: { sheet } };
    });

  // One click from a company: its peers (/peers) side by side, every metric a live formula.
  const buildPeers = () =>
    task.run(async (signal) => {
      const c = normalizeInput(code).toUpperCase();
      if (!/^([0-9A-Z]{4,5}|[EG]\d{5})$/.test(c)) {
        throw new UserMessageError(t("paramFormat", { param: t("companyCode") }));
      }
      const securityCode = isEdinetCode(c) ? await securityCodeOf(c) : c;
      const peers = await companyPeers(session.client(), securityCode, { signal });
      if (peers.codes.length === 0)
        throw new UserMessageError(t("companyNoPeers", { code: securityCode }));
      const sheet = await buildCompanySheet(peerSheetLayout(securityCode, peers, t.lang));
      bump();
      const text = t("companyPeersBuilt", { sheet, n: peers.codes.length });
      return { intent: "success", text, data: { sheet } };
    });

  // spec 2.9: an organization lists its primary listed security code.
  const securityCodeOf = async (edinet: string): Promise<string> => {
    const codes = prop(
      await session.client().organization({ edinet_code: edinet }),
      "listed_security_codes",
    );
    const first = Array.isArray(codes)
      ? codes.find((x): x is string => typeof x === "string")
      : undefined;
    if (!first)
      throw new UserMessageError(t("paramFormat", { param: `${t("param_code")} (${edinet})` }));
    return first;
  };

  return (
    <div className="kaisha-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("companyTitle")}
      </Text>
      <Text size={200}>{t("companyHint")}</Text>
      <CompanyPicker
        testId="company-sheet-code"
        label={t("companyCode")}
        value={code}
        allowEdinet
        onChange={setCode}
      />
      <Field label={t("companyYears")}>
        <Input
          data-testid="company-sheet-years"
          type="number"
          min={1}
          max={30}
          value={years}
          onChange={(_, d) => setYears(d.value)}
        />
      </Field>
      <Button
        data-testid="company-sheet-build"
        appearance="primary"
        disabled={task.running || !excel}
        onClick={() => void build()}
      >
        {t("companyBuild")}
      </Button>
      <Button
        data-testid="company-peers-build"
        disabled={task.running || !excel}
        onClick={() => void buildPeers()}
      >
        {t("companyPeersBuild")}
      </Button>
      {task.running && <Spinner size="tiny" label={t("companyBuilding")} />}
      <StatusMessage message={task.message} testId="company-sheet-message" />
    </div>
  );
}
