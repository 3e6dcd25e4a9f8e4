"use client";

import type { FormEvent } from "react";
import { useRouter } from "next/navigation";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { FormOutcome } from "@/components/ui/notice";
import { BOOK_ACCOUNTS, BOOK_ACCOUNT_WORDS } from "@/lib/books/account-words";
import type { BookAccounts } from "@/lib/books/accounts";

/** Admins map the accounting export's accounts to their chart of accounts (a code for Xero, a name for QuickBooks). */
export function BookAccountsForm({ accounts, canEdit }: { accounts: BookAccounts; canEdit: boolean }) {
  const router = useRouter();
  const save = useApiMutation((bookAccounts: BookAccounts) => ({ method: "PUT", url: "/api/settings", body: { bookAccounts } }), {
    onSuccess: () => router.refresh(),
  });
  const err = (key: keyof BookAccounts) => save.problem?.errors?.[`bookAccounts.${key}`];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const read = (key: keyof BookAccounts) => String(form.get(key) ?? "").trim();
    const entries = Object.keys(accounts).map((key) => [key, read(key as keyof BookAccounts)]);
    save.send(Object.fromEntries(entries) as BookAccounts);
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Accounts of the accounting export">
      <FormOutcome problem={save.problem} saved={save.saved} />
      <fieldset disabled={!canEdit} className="space-y-4">
        {BOOK_ACCOUNTS.map((account) => (
          <div key={account}>
            <p className="text-sm font-medium text-slate-700">{BOOK_ACCOUNT_WORDS[account].label}</p>
            <p className="text-xs text-slate-500">{BOOK_ACCOUNT_WORDS[account].hint}</p>
            <div className="mt-2 grid gap-3 sm:grid-cols-[10rem_1fr]">
              <Field
                label="Code"
                name={`${account}Number`}
                defaultValue={accounts[`${account}Number`]}
                error={err(`${account}Number`)}
              />
              <Field
                label="Name"
                name={`${account}Name`}
                defaultValue={accounts[`${account}Name`]}
                error={err(`${account}Name`)}
              />
            </div>
          </div>
        ))}
        <Field
          label="Xero tax rate on every line"
          name="xeroTaxRate"
          hint="The rate's name as Xero's tax settings show it; wallet movements carry no tax."
          defaultValue={accounts.xeroTaxRate}
          error={err("xeroTaxRate")}
        />
      </fieldset>
      {canEdit ? (
        <Button type="submit" disabled={save.pending}>
          {save.pending ? "Saving…" : "Save accounts"}
        </Button>
      ) : null}
    </form>
  );
}
