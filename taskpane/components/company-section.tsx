// Company and comps sheets: one action each builds the template; a rebuild keeps the analyst's cells.

import { useState } from "react";
import { Button, Field, Input, Spinner, Text } from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { useTask } from "../hooks/use-task";
import { UserMessageError } from "../error-text";
import { buildCompanySheet, readSheetValues, type SheetBuild } from "../excel/company-sheet";
import { companyFiscalYears, companySheetLayout } from "../state/company-sheet-plan";
import {
  codesOnSheet,
  companyPeers,
  keptCodesBlock,
  peerSheetLayout,
  peerSheetName,
} from "../state/peer-sheet-plan";
import { normalizeInput } from "../state/datasets";
import { COMPANY_CODE_PATTERN, isEdinetCode } from "../state/contract-params";
import { StatusMessage } from "./status-message";
import { CompanyPicker } from "./company-picker";

export function CompanySection() {
  const { t, session, excel, bump } = usePane();
  const task = useTask(t);
  const [code, setCode] = useState("");
  const [years, setYears] = useState("10");

  /** The code typed, as a security code (an EDINET code resolved: VALUATION and PRICE need one). */
  const subjectCode = async (): Promise<string> => {
    const c = normalizeInput(code).toUpperCase();
    if (!new RegExp(COMPANY_CODE_PATTERN).test(c)) {
      throw new UserMessageError(t("paramFormat", { param: t("companyCode") }));
    }
    return isEdinetCode(c) ? securityCodeOf(c) : c;
  };

  // A rebuild writes only the template's cells: what the analyst added to the sheet stays.
  const builtMessage = (build: SheetBuild, text: string) =>
    ({
      intent: "success",
      text: build.rebuilt ? `${text} ${t("sheetRebuiltKept")}` : text,
      data: { sheet: build.sheet },
    }) as const;

  const build = () =>
    task.run(async (signal) => {
      const securityCode = await subjectCode();
      const fiscalYears = await companyFiscalYears(
        session.client(),
        securityCode,
        Number(years) || 10,
        { signal },
      );
      if (fiscalYears.length === 0)
        throw new UserMessageError(t("companyNoYears", { code: securityCode }));
      const layout = companySheetLayout(securityCode, fiscalYears, t.lang, new Date());
      const built = await buildCompanySheet(layout.plan);
      bump();
      return builtMessage(built, t("companyBuilt", { sheet: built.sheet }));
    });

  // One click from a company: its row, its peers (/peers) and spare rows, every figure a formula.
  const buildPeers = () =>
    task.run(async (signal) => {
      const securityCode = await subjectCode();
      const peers = await companyPeers(session.client(), securityCode, { signal });
      if (peers.peers.length === 0)
        throw new UserMessageError(t("companyNoPeers", { code: securityCode }));
      // Codes the analyst added to the sheet on an earlier build stay on it.
      const earlier = await readSheetValues(peerSheetName(securityCode), keptCodesBlock());
      const kept = earlier ? codesOnSheet(earlier) : [];
      const layout = peerSheetLayout(peers, t.lang, new Date(), kept);
      const built = await buildCompanySheet(layout.plan);
      bump();
      const text = t("companyPeersBuilt", { sheet: built.sheet, n: peers.peers.length });
      return builtMessage(built, text);
    });

  // openapi.json Organization: an organization lists its primary listed security code.
  const securityCodeOf = async (edinet: string): Promise<string> => {
    const org = await session.client().organization({ edinet_code: edinet });
    const first = org.listed_security_codes[0];
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
