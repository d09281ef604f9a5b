// Connection: server, connection mode, header language, and the API key (masked, shape check, verify, remember, forget).

import { useState } from "react";
import {
  Button,
  Checkbox,
  Field,
  Input,
  Radio,
  RadioGroup,
  Select,
  Text,
} from "@fluentui/react-components";
import { usePane } from "../pane-context";
import { DEMO_KEY, URL_PRESETS } from "../pane-session";
import { useTask } from "../hooks/use-task";
import { checkKeyShape, normalizeKey } from "../state/key-shape";
import { sameBaseUrl } from "../state/key-store";
import { parseUsage } from "../state/usage-model";
import {
  baseUrlOf,
  isValidBaseUrl,
  type BasePreset,
  type PaneSettings,
} from "../state/pane-settings";
import { StatusMessage } from "./status-message";
import { SendHoldNotice } from "./send-hold-notice";
import { UserMessageError } from "../error-text";

export function ConnectionSection() {
  const { t, session, setConnection } = usePane();
  const task = useTask(t);
  const [settings, setSettings] = useState<PaneSettings>(session.settings);
  const [key, setKey] = useState(session.keys.current() ?? "");
  const [visible, setVisible] = useState(false);
  const [remember, setRemember] = useState(session.keys.isRemembered());
  const [remaining, setRemaining] = useState<number | undefined>();

  const shape = checkKeyShape(key);
  const shapeText =
    shape === "ok"
      ? t("keyShapeOk")
      : shape === "empty"
        ? t("keyShapeEmpty")
        : shape === "not_header_safe"
          ? t("keyShapeInvisible")
          : shape === "wrong_length"
            ? t("keyShapeLength", { n: normalizeKey(key).length })
            : shape === "wrong_prefix"
              ? t("keyShapePrefix")
              : t("keyShapeChars");
  // A remembered key goes only to the server it was entered for; say so when this page
  // points elsewhere (a dev build's ?baseUrl), instead of a bare "no key".
  const boundTo = session.keys.boundTo();
  const target = session.keyTarget?.();
  const boundElsewhere =
    boundTo !== undefined && target !== undefined && !sameBaseUrl(boundTo, target);
  const customInvalid =
    settings.preset === "custom" && !isValidBaseUrl(baseUrlOf(settings, URL_PRESETS));

  const update = (next: PaneSettings) => {
    setSettings(next);
    if (next.preset === "custom" && !isValidBaseUrl(baseUrlOf(next, URL_PRESETS))) return;
    void session.applySettings(next);
    setConnection(session.keys.current() ? "unverified" : "none");
  };

  const applyKey = async (): Promise<void> => {
    if (shape !== "ok") throw new UserMessageError(shapeText);
    if (customInvalid) throw new UserMessageError(t("customUrlInvalid"));
    await session.setKey(normalizeKey(key), remember);
    // A key entered (again) may send: a refused key's state is lifted (src/client/send-state.ts).
    session.client().resumeSending?.();
  };

  const save = () =>
    task.run(async () => {
      await applyKey();
      setConnection("unverified");
      return { intent: "success", text: remember ? t("keySavedRemembered") : t("keySaved") };
    });

  const verify = () =>
    task.run(async (signal) => {
      await applyKey();
      try {
        const body = await session.client().usage({ signal });
        const n = parseUsage(body)?.remaining;
        setConnection("ok");
        if (n !== undefined) {
          setRemaining(n);
          return { intent: "success", text: t("keyVerified", { n }) };
        }
        return { intent: "success", text: t("keyVerifiedNoCount") };
      } catch (err) {
        setConnection("error");
        throw err;
      }
    });

  const forget = () =>
    task.run(async () => {
      await session.forgetKey();
      setKey("");
      setRemember(false);
      setRemaining(undefined);
      setConnection("none");
      return { intent: "info", text: t("keyForgotten") };
    });

  return (
    <div className="kaisha-section">
      <Text as="h2" weight="semibold" size={400}>
        {t("connTitle")}
      </Text>
      <Field label={t("baseUrl")}>
        <Select
          data-testid="conn-base-url-preset"
          value={settings.preset}
          onChange={(_, d) => update({ ...settings, preset: d.value as BasePreset })}
        >
          <option value="production">{t("presetProduction")}</option>
          <option value="sandbox">{t("presetSandbox")}</option>
          <option value="custom">{t("presetCustom")}</option>
        </Select>
      </Field>
      {settings.preset === "custom" && (
        <Field
          label={t("customUrl")}
          hint={t("customUrlHint")}
          validationState={customInvalid ? "error" : "none"}
          {...(customInvalid ? { validationMessage: t("customUrlInvalid") } : {})}
        >
          <Input
            data-testid="conn-base-url-custom"
            value={settings.customUrl}
            placeholder="https://api.irbank.net/v1"
            onChange={(_, d) => setSettings({ ...settings, customUrl: d.value })}
            onBlur={() => update(settings)}
          />
        </Field>
      )}
      <Field label={t("connMode")} hint={t("modeHint")}>
        <RadioGroup
          value={settings.mode}
          onChange={(_, d) =>
            update({ ...settings, mode: d.value === "relay" ? "relay" : "direct" })
          }
        >
          <Radio value="direct" label={t("modeDirect")} data-testid="conn-mode-direct" />
          <Radio value="relay" label={t("modeRelay")} data-testid="conn-mode-relay" />
        </RadioGroup>
      </Field>
      <Field label={t("headerLanguage")}>
        <Select
          data-testid="conn-header-language"
          value={settings.headerLanguage}
          onChange={(_, d) =>
            update({ ...settings, headerLanguage: d.value === "ja" ? "ja" : "keys" })
          }
        >
          <option value="keys">{t("headerKeys")}</option>
          <option value="ja">{t("headerJa")}</option>
        </Select>
      </Field>

      {/* A refused key: the key field below is where a new one goes. */}
      <SendHoldNotice only="key_refused" />
      <Field
        label={t("apiKey")}
        validationState={shape === "ok" ? "success" : shape === "empty" ? "none" : "warning"}
        validationMessage={
          <span data-testid="key-shape-hint" data-valid={String(shape === "ok")}>
            {shapeText}
          </span>
        }
      >
        <Input
          data-testid="key-input"
          type={visible ? "text" : "password"}
          value={key}
          autoComplete="off"
          spellCheck={false}
          onChange={(_, d) => setKey(d.value)}
          contentAfter={
            <Button
              data-testid="key-toggle-visibility"
              appearance="transparent"
              size="small"
              aria-pressed={visible}
              onClick={() => setVisible(!visible)}
            >
              {visible ? t("keyHide") : t("keyShow")}
            </Button>
          }
        />
      </Field>
      {boundElsewhere && (
        <Text size={200} className="kaisha-hint" data-testid="key-bound-elsewhere">
          {t("keyBoundElsewhere", { url: boundTo })}
        </Text>
      )}
      {DEMO_KEY !== "" && settings.preset !== "production" && (
        <Button
          data-testid="key-use-demo"
          size="small"
          appearance="subtle"
          onClick={() => setKey(DEMO_KEY)}
        >
          {t("keyUseDemo")}
        </Button>
      )}
      <Checkbox
        data-testid="key-remember"
        checked={remember}
        label={t("keyRemember")}
        onChange={(_, d) => setRemember(d.checked === true)}
      />
      <Text size={200} className="kaisha-hint">
        {t("keyRememberHint")}
      </Text>
      <div className="kaisha-row">
        <Button
          data-testid="key-verify"
          appearance="primary"
          disabled={task.running}
          onClick={() => void verify()}
        >
          {t("keyVerify")}
        </Button>
        <Button data-testid="key-save" disabled={task.running} onClick={() => void save()}>
          {t("keySave")}
        </Button>
        <Button data-testid="key-forget" disabled={task.running} onClick={() => void forget()}>
          {t("keyForget")}
        </Button>
      </div>
      {remaining !== undefined && (
        <Text>
          {t("remaining")}: <span data-testid="usage-remaining">{remaining}</span>
        </Text>
      )}
      <StatusMessage message={task.message} testId="conn-message" />
    </div>
  );
}
