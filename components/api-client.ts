import type { ProofMethod } from "@/lib/auth/proof-method";

/** Browser-side calls to this app's route handlers; failures come back as problem documents. */
export type ApiProblem = {
  title: string;
  status: number;
  detail: string;
  code: string;
  correlationId?: string;
  errors?: Record<string, string[]>;
  quotedTotal?: number;
  /** On 403 `step_up_required`: how the person can prove it is them (components/auth/step-up.tsx asks). */
  stepUp?: { methods: ProofMethod[] };
  /** On 403 `second_factor_required` / `second_factor_enrolment_required`: the page of that step. */
  next?: string;
};
export type ApiResult<T> = { ok: true; data: T } | { ok: false; problem: ApiProblem };

export async function callApi<T>(
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  body?: unknown,
): Promise<ApiResult<T>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers: body === undefined ? undefined : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch {
    return {
      ok: false,
      problem: {
        title: "Network error",
        status: 0,
        detail: "The server could not be reached. Check your connection and try again.",
        code: "network_error",
      },
    };
  }
  if (res.status === 204) return { ok: true, data: undefined as T };
  const json: unknown = await res.json().catch(() => null);
  if (res.ok) return { ok: true, data: json as T };
  // A full page load (not router.push) so that no client state of the dead session survives.
  if (res.status === 401 && typeof window !== "undefined") {
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign(`/signin?expired=1&callbackUrl=${encodeURIComponent(window.location.pathname)}`);
  }
  const problem =
    json && typeof json === "object" && "code" in json
      ? (json as ApiProblem)
      : { title: "Error", status: res.status, detail: `The server answered ${res.status}.`, code: "unknown" };
  return { ok: false, problem };
}
