import type { Metadata } from "next";
import { AccessLinkPage } from "@/components/auth/access-link-page";

export const metadata: Metadata = { title: "Join the back-office", referrer: "no-referrer" };

/** An invitation's one-time link: the invitee sets a password, then enrols a second factor if their role must. */
export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  return <AccessLinkPage purpose="invitation" token={(await params).token} />;
}
