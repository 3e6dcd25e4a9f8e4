"use client";

import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import type { ApiProblem } from "@/components/api-client";
import { useApiMutation } from "@/components/use-api-mutation";
import { Button } from "@/components/ui/button";
import { RefusalNotice } from "@/components/ui/notice";
import type { BulkOrderView } from "@/lib/bulk-orders/bulk-view";
import { FIELD_ERROR } from "@/components/ui/field";

const MAX_BYTES = 256 * 1024;
const TEMPLATE = "productId,variantId,value,quantity,clientReference,phoneNumber\r\n";

/** Reads the chosen CSV in the browser and sends it for a preview; nothing is bought yet. */
export function UploadForm() {
  const router = useRouter();
  // The file is checked here first (no file, too large); the server checks its rows.
  const [fileProblem, setFileProblem] = useState<ApiProblem | null>(null);
  const upload = useApiMutation<BulkOrderView, { fileName: string; csv: string }>(
    (body) => ({ method: "POST", url: "/api/bulk-orders", body }),
    { onSuccess: (view) => router.push(`/orders/bulk/${view.id}`) },
  );
  const problem = fileProblem ?? upload.problem;
  // Still busy after the answer: the preview page is on its way.
  const pending = upload.pending || upload.saved;

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const file = new FormData(event.currentTarget).get("file");
    if (!(file instanceof File) || file.size === 0) return setFileProblem(fieldProblem("Choose a CSV file."));
    if (file.size > MAX_BYTES)
      return setFileProblem(fieldProblem("The file is larger than 256 KiB. Split it into several uploads."));
    setFileProblem(null);
    upload.send({ fileName: file.name, csv: await file.text() });
  }

  const fileError = problem?.errors?.csv ?? problem?.errors?.fileName;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Upload a bulk order" className="space-y-4">
      {problem && !fileError ? <RefusalNotice problem={problem} /> : null}
      <div className="space-y-1">
        <label htmlFor="bulk-file" className="block text-sm font-medium text-slate-700">
          CSV file
        </label>
        <input
          id="bulk-file"
          name="file"
          type="file"
          accept=".csv,text/csv"
          aria-invalid={fileError ? true : undefined}
          aria-describedby={fileError ? "bulk-file-hint bulk-file-error" : "bulk-file-hint"}
          onChange={() => (setFileProblem(null), upload.reset())}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-md file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-medium file:text-slate-800 hover:file:bg-slate-200"
        />
        <p id="bulk-file-hint" className="text-xs text-slate-500">
          Up to 500 rows and 256 KiB, comma-separated, with the header row.{" "}
          <a
            href={`data:text/csv;charset=utf-8,${encodeURIComponent(TEMPLATE)}`}
            download="bulk-order-template.csv"
            className="font-medium text-brand-600 hover:underline"
          >
            Download an empty template
          </a>
          .
        </p>
        {fileError ? (
          <p id="bulk-file-error" role="alert" className={FIELD_ERROR} data-testid="error-file">
            {fileError.join(" ")}
            {problem?.correlationId ? (
              <span className="mt-0.5 block font-mono text-xs opacity-80">Reference for support: {problem.correlationId}</span>
            ) : null}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={pending} data-testid="bulk-upload">
        {pending ? "Checking the rows…" : "Upload and preview"}
      </Button>
    </form>
  );
}

function fieldProblem(message: string): ApiProblem {
  return { title: "Invalid request", status: 400, detail: message, code: "invalid_request", errors: { csv: [message] } };
}
