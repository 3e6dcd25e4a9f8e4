import type { Metadata } from "next";
import { requirePageSession } from "@/lib/auth/current";
import { readMyChoices } from "@/lib/notifications/read-choices";
import { kindOptionsFor } from "@/lib/notifications/form-options";
import { PageHeader, Card } from "@/components/ui/page-header";
import { EmailChoicesForm } from "@/components/notifications/email-choices-form";

export const metadata: Metadata = { title: "Notification settings" };

/** One's own email choices: kinds, each or a digest, quiet hours. The in-app inbox gets everything. */
export default async function NotificationSettingsPage() {
  const { actor } = await requirePageSession();
  const { choices, own } = await readMyChoices(actor);
  return (
    <>
      <PageHeader
        title="Notification settings"
        description="Everything that needs you appears under the bell. Choose what also comes by email, and when."
      />
      <Card>
        <EmailChoicesForm initial={choices} own={own} kinds={kindOptionsFor(actor.roles)} target="mine" />
      </Card>
    </>
  );
}
