import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { getUpstreamStatus } from "@/lib/overview/upstream-status";
import { PageHeader, Card } from "@/components/ui/page-header";
import { UpstreamStatusPanel } from "@/components/settings/upstream-status-panel";
import { KeyHealthPanel } from "@/components/settings/key-health-panel";
import { getKeyHealth } from "@/lib/overview/key-health";
import { ThresholdsForm } from "@/components/settings/thresholds-form";
import { getSettings } from "@/lib/settings/get-settings";
import { can } from "@/lib/auth/permissions";
import { getImportProgress } from "@/lib/orders/import-progress";
import { OrderImportPanel } from "@/components/settings/order-import-panel";
import { readSecondFactorPolicy } from "@/lib/auth/second-factor/policy";
import { readFactorGaps } from "@/lib/auth/second-factor/factor-gaps";
import { SecondFactorPolicyForm } from "@/components/settings/second-factor-policy-form";
import { readSsoOnly } from "@/lib/auth/sso/sso-only";
import { SsoOnlyForm } from "@/components/settings/sso-only-form";
import { readWorkspaceChoices } from "@/lib/notifications/read-choices";
import { readChatWebhookHealth } from "@/lib/notifications/chat-health";
import { workspaceKindOptions } from "@/lib/notifications/form-options";
import { EmailChoicesForm } from "@/components/notifications/email-choices-form";
import { Link } from "@/components/ui/link";
import { BookAccountsForm } from "@/components/books/book-accounts-form";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage() {
  const { actor } = await requirePageSession("settings.read");
  const [status, keys, settings, importProgress, policy, gaps, sso, notifications, chatHealth] = await Promise.all([
    getUpstreamStatus(actor),
    getKeyHealth(actor),
    getSettings(),
    getImportProgress(actor),
    readSecondFactorPolicy(),
    readFactorGaps(actor.staffId),
    readSsoOnly(),
    readWorkspaceChoices(actor),
    readChatWebhookHealth(actor),
  ]);
  const { chatKinds, chatWebhookHint, ...emailDefaults } = notifications;
  return (
    <>
      <PageHeader title="Settings" description="The connection to the Issuing Service, and the thresholds staff work within." />
      <div className="space-y-6">
        <UpstreamStatusPanel status={status} />
        <KeyHealthPanel keys={keys} />
        <OrderImportPanel initial={importProgress} canManage={can(actor.roles, "settings.manage")} />
        <Card>
          <h2 className="mb-3 text-base font-semibold">Thresholds</h2>
          <ThresholdsForm settings={settings} canEdit={can(actor.roles, "settings.manage")} />
        </Card>
        <Card>
          <h2 id="accounts" className="mb-1 text-base font-semibold">
            Accounting export
          </h2>
          <p className="mb-4 text-sm text-slate-600">
            The accounts the monthly journal posts to.{" "}
            <Link href="/reports/journal" className="font-medium text-brand-600 hover:underline">
              Open the journal
            </Link>
          </p>
          <BookAccountsForm accounts={settings.bookAccounts} canEdit={can(actor.roles, "settings.manage")} />
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold">Second factor</h2>
          <SecondFactorPolicyForm
            roles={policy.roles}
            isDefault={policy.isDefault}
            canEdit={can(actor.roles, "settings.manage")}
            gaps={can(actor.roles, "settings.manage") ? gaps : []}
          />
        </Card>
        <Card>
          <h2 className="mb-3 text-base font-semibold">Single sign-on</h2>
          <SsoOnlyForm {...sso} canEdit={can(actor.roles, "settings.manage")} />
        </Card>
        <Card>
          <h2 id="notifications" className="mb-1 text-base font-semibold">
            Notifications
          </h2>
          <p className="mb-4 text-sm text-slate-600">
            Everyone&apos;s email defaults (each person may choose their own) and the chat channel.{" "}
            {can(actor.roles, "notifications.outbox") ? (
              <Link href="/events/outbox" className="font-medium text-brand-600 hover:underline">
                See the outbox
              </Link>
            ) : null}
          </p>
          <EmailChoicesForm
            initial={emailDefaults}
            kinds={workspaceKindOptions()}
            target="workspace"
            workspace={{ chatKinds, chatWebhookHint, chatHealth }}
            canEdit={can(actor.roles, "settings.manage")}
          />
        </Card>
      </div>
    </>
  );
}
