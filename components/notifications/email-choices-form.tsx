"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { FIELD_ERROR, Field } from "@/components/ui/field";
import { Notice } from "@/components/ui/notice";
import { TimeZoneSelect } from "./time-zone-select";
import { ChatWebhookStatus } from "./chat-webhook-status";
import type { ChatWebhookHealth } from "@/lib/notifications/chat-health";
import type { EmailChoicesView } from "@/lib/notifications/read-choices";
import type { KindOption } from "@/lib/notifications/form-options";
import { APPROVAL_KINDS } from "@/lib/notifications/kind-names";
import { Select } from "@/components/ui/field";

type Workspace = { chatKinds: string[]; chatWebhookHint: string | null; chatHealth: ChatWebhookHealth | null };

/**
 * Email choices: which kinds, each or as a digest, quiet hours in a time zone. For a person
 * (`target: "mine"`) or, with the chat channel, for the workspace (`target: "workspace"`).
 * The webhook URL field is write-only: the saved one shows as its hint, empty keeps it.
 */
export function EmailChoicesForm({
  initial,
  kinds,
  target,
  own = true,
  workspace,
  canEdit = true,
}: {
  initial: EmailChoicesView;
  kinds: KindOption[];
  target: "mine" | "workspace";
  own?: boolean;
  workspace?: Workspace;
  canEdit?: boolean;
}) {
  const router = useRouter();
  const [choices, setChoices] = useState(initial);
  const [chatKinds, setChatKinds] = useState(workspace?.chatKinds ?? []);
  const [webhook, setWebhook] = useState("");
  const [removeWebhook, setRemoveWebhook] = useState(false);
  const url = target === "mine" ? "/api/account/notification-preferences" : "/api/settings/notifications";
  const save = useApiMutation((body: object) => ({ method: "PUT", url, body }), {
    onSuccess: () => {
      setWebhook("");
      setRemoveWebhook(false);
      router.refresh();
    },
  });
  const reset = useApiMutation(() => ({ method: "DELETE", url, body: {} }), { onSuccess: () => router.refresh() });
  const errors = save.problem?.errors ?? {};
  const id = (name: string) => `${target}-${name}`;
  // Where quiet hours start or end: a time of day, kept in the form's state until saved.
  const quietField = (key: "quietStart" | "quietEnd", label: string, hint?: string) => (
    <Field
      label={label}
      name={key}
      id={id(key === "quietStart" ? "quiet-start" : "quiet-end")}
      type="time"
      value={choices[key]}
      disabled={!canEdit}
      onChange={(e) => setChoices({ ...choices, [key]: e.target.value })}
      error={errors[key]}
      hint={hint}
    />
  );
  // A digest holds an approval until the period ends: the request may expire, or be decided, meanwhile.
  const approvalsHeld =
    choices.digest !== "off" &&
    kinds.some(({ kind }) => (APPROVAL_KINDS as readonly string[]).includes(kind) && choices.emailKinds.includes(kind));

  return (
    <form
      noValidate
      aria-label={target === "mine" ? "Your notification settings" : "Workspace notification settings"}
      className="space-y-5"
      onSubmit={(event) => {
        event.preventDefault();
        const body: Record<string, unknown> = { ...choices };
        if (target === "workspace") {
          body.chatKinds = chatKinds;
          if (removeWebhook) body.chatWebhookUrl = "";
          else if (webhook.trim()) body.chatWebhookUrl = webhook.trim();
        }
        save.send(body);
      }}
    >
      {save.problem ? (
        <Notice tone="error" correlationId={save.problem.correlationId}>
          {save.problem.errors ? "Check the fields marked below." : save.problem.detail}
        </Notice>
      ) : null}
      {save.saved ? <Notice tone="success">Saved.</Notice> : null}
      {target === "mine" && !own ? (
        <p className="text-sm text-slate-600">You have not chosen yet: these are the workspace&apos;s defaults.</p>
      ) : null}

      {kinds.length === 0 ? (
        <p className="text-sm text-slate-600">
          None of the notifications goes to your roles, so nothing comes by email. What concerns you still shows under the bell.
        </p>
      ) : (
        <KindCheckboxes
          legend={target === "mine" ? "Send me an email for" : "Email people for these, unless they chose their own"}
          idPrefix={id("email")}
          kinds={kinds}
          selected={choices.emailKinds}
          onChange={(emailKinds) => setChoices({ ...choices, emailKinds })}
          error={errors.emailKinds}
          disabled={!canEdit}
        />
      )}

      <div className="grid gap-4 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor={id("digest")} className="block text-sm font-medium text-slate-700">
            How
          </label>
          <Select
            id={id("digest")}
            name="digest"
            value={choices.digest}
            aria-describedby={approvalsHeld ? id("digest-warning") : undefined}
            disabled={!canEdit}
            onChange={(e) => setChoices({ ...choices, digest: e.target.value as EmailChoicesView["digest"] })}
            className="min-h-11"
          >
            <option value="off">Each one as it happens</option>
            <option value="hourly">One digest an hour</option>
            <option value="daily">One digest a day</option>
          </Select>
          {approvalsHeld ? (
            <p id={id("digest-warning")} data-testid="digest-approval-warning" className="text-sm text-amber-800">
              Approvals would wait for the digest, up to {choices.digest === "hourly" ? "an hour" : "a day"}: a request can expire
              before anyone sees it. Keep &ldquo;Each one as it happens&rdquo;, or untick the approvals.
            </p>
          ) : null}
        </div>
        <div className="space-y-1">
          <label htmlFor={id("tz")} className="block text-sm font-medium text-slate-700">
            Time zone
          </label>
          <TimeZoneSelect
            id={id("tz")}
            name="timeZone"
            value={choices.timeZone}
            disabled={!canEdit}
            onZone={(timeZone) => setChoices({ ...choices, timeZone })}
            aria-invalid={errors.timeZone ? true : undefined}
            className="min-h-11"
          />
          {canEdit ? (
            <Button
              type="button"
              variant="ghost"
              onClick={() => setChoices({ ...choices, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone })}
            >
              Use my time zone
            </Button>
          ) : null}
          {errors.timeZone ? <p className={FIELD_ERROR}>{errors.timeZone.join(" ")}</p> : null}
        </div>
        {quietField("quietStart", "Quiet hours from", "Email waits until the quiet hours end; the app shows it at once.")}
        {quietField("quietEnd", "Quiet hours until")}
      </div>

      {target === "workspace" ? (
        <fieldset className="space-y-4 border-t border-slate-200 pt-4">
          <legend className="pt-4 text-sm font-semibold text-slate-900">Chat channel</legend>
          <Field
            label="Incoming-webhook URL (Slack, Microsoft Teams, Mattermost)"
            name="chatWebhookUrl"
            id={id("webhook")}
            type="url"
            autoComplete="off"
            value={webhook}
            disabled={!canEdit || removeWebhook}
            placeholder={workspace?.chatWebhookHint ? `Set: ${workspace.chatWebhookHint}` : "https://hooks.slack.com/services/…"}
            onChange={(e) => setWebhook(e.target.value)}
            error={errors.chatWebhookUrl}
            hint={
              workspace?.chatWebhookHint
                ? "Leave empty to keep the one set. It is stored sealed and never shown again."
                : "It is stored sealed and never shown again."
            }
          />
          {workspace?.chatHealth ? <ChatWebhookStatus health={workspace.chatHealth} canEdit={canEdit} /> : null}
          {workspace?.chatWebhookHint ? (
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={removeWebhook}
                disabled={!canEdit}
                onChange={(e) => setRemoveWebhook(e.target.checked)}
              />
              Remove the webhook (no more chat messages)
            </label>
          ) : null}
          <KindCheckboxes
            legend="Post to the chat channel"
            idPrefix={id("chat")}
            kinds={kinds}
            selected={chatKinds}
            onChange={setChatKinds}
            error={errors.chatKinds}
            disabled={!canEdit}
          />
        </fieldset>
      ) : null}

      {canEdit ? (
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={save.pending}>
            {save.pending ? "Saving…" : "Save"}
          </Button>
          {target === "mine" && own ? (
            <Button type="button" variant="secondary" disabled={reset.pending} onClick={() => reset.send()}>
              Use the workspace&apos;s defaults
            </Button>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

function KindCheckboxes({
  legend,
  idPrefix,
  kinds,
  selected,
  onChange,
  error,
  disabled,
}: {
  legend: string;
  idPrefix: string;
  kinds: KindOption[];
  selected: string[];
  onChange: (kinds: string[]) => void;
  error?: string[];
  disabled: boolean;
}) {
  return (
    <fieldset aria-describedby={error?.length ? `${idPrefix}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      <div className="mt-2 grid gap-1 sm:grid-cols-2">
        {kinds.map(({ kind, label, who }) => (
          <label key={kind} className="flex min-h-11 items-center gap-2 text-sm">
            <input
              type="checkbox"
              name={`${idPrefix}-kinds`}
              value={kind}
              disabled={disabled}
              checked={selected.includes(kind)}
              onChange={(e) => onChange(e.target.checked ? [...selected, kind] : selected.filter((k) => k !== kind))}
            />
            <span>
              {label}
              {who ? <span className="text-slate-600"> · to {who}</span> : null}
            </span>
          </label>
        ))}
      </div>
      {error?.length ? (
        <p id={`${idPrefix}-error`} className={`mt-1 ${FIELD_ERROR}`}>
          {error.join(" ")}
        </p>
      ) : null}
    </fieldset>
  );
}
