import type { Metadata } from "next";
import { headers } from "next/headers";
import "./globals.css";
import { LinkNavigator } from "@/components/ui/link-navigator";
import { inter, interExtended } from "./fonts";

export const metadata: Metadata = {
  title: { default: "Back-office", template: "%s · Back-office" },
  description: "Merchant back-office for the Digital-Goods Issuing Service",
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  // Reading headers makes every page dynamic, which the per-request CSP nonce requires.
  await headers();
  return (
    <html lang="en" className={`${inter.variable} ${interExtended.variable}`}>
      <body className="min-h-screen font-sans">
        {children}
        <LinkNavigator />
      </body>
    </html>
  );
}
