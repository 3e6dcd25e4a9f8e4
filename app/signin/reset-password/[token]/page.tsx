import type { Metadata } from "next";
import { AccessLinkPage } from "@/components/auth/access-link-page";

export const metadata: Metadata = { title: "Set a new password", referrer: "no-referrer" };

/** An admin's password reset link: the person sets a new password and signs in (their second factor still asked). */
export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  return <AccessLinkPage purpose="password_reset" token={(await params).token} />;
}
