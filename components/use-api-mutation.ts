"use client";

import { useCallback } from "react";
import { useMutation } from "@tanstack/react-query";
import { callApi, type ApiProblem, type ApiResult } from "@/components/api-client";
import { useStepUp } from "@/components/auth/step-up";

/** One call to this app's route handlers. */
export type ApiRequest = {
  method: "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  body?: unknown;
};

type Options<TData, TVariables> = {
  /** What the step-up prompt says the person is confirming, should one be asked ("Approve the order of …"). */
  confirming?: (variables: TVariables) => string | undefined;
  onSuccess?: (data: TData, variables: TVariables) => void;
  onError?: (problem: ApiProblem, variables: TVariables) => void;
};

/**
 * A form's or a button's call to the app, with its state: `pending` while it runs, `problem`
 * (the problem document, with its field errors) after a refusal, `data` and `saved` after a
 * success, and `reset` to forget the last outcome. The request goes through `callApi`, so a
 * network failure is a problem document too and an expired session goes to the sign-in page.
 *
 * `send` fires and forgets; `settle` resolves with the outcome and never rejects, for a
 * caller that waits for it. The callbacks given here run for every call, even if the form
 * is gone by the time the answer comes (a navigation after an order must still happen).
 * A refusal for want of a recent proof (403 `step_up_required`) opens the step-up prompt
 * (components/auth/step-up.tsx), saying what is confirmed (`confirming`), and once proved
 * sends the same request again.
 */
export function useApiMutation<TData = unknown, TVariables = void>(
  request: (variables: TVariables) => ApiRequest,
  { confirming, onSuccess, onError }: Options<TData, TVariables> = {},
) {
  const askStepUp = useStepUp();
  const mutation = useMutation<TData, ApiProblem, TVariables>({
    mutationFn: async (variables) => {
      const { method, url, body } = request(variables);
      let result = await callApi<TData>(method, url, body);
      // A sensitive action whose proof is too old: ask for it (the step-up prompt), then send again once.
      if (!result.ok && result.problem.code === "step_up_required" && result.problem.stepUp && askStepUp) {
        if (await askStepUp(result.problem.stepUp.methods, confirming?.(variables)))
          result = await callApi<TData>(method, url, body);
      }
      // A problem document is the error of a mutation: TanStack keeps it as `error`.
      if (!result.ok) throw result.problem;
      return result.data;
    },
    onSuccess: (data, variables) => onSuccess?.(data, variables),
    onError: (problem, variables) => onError?.(problem, variables),
    // The answer and the variables (passwords, revealed codes) live as long as the form that
    // shows them: the mutation leaves the cache as soon as nothing observes it.
    gcTime: 0,
  });
  const { mutate, mutateAsync } = mutation;
  const settle = useCallback(
    (variables: TVariables): Promise<ApiResult<TData>> =>
      mutateAsync(variables).then(
        (data) => ({ ok: true, data }),
        (problem: ApiProblem) => ({ ok: false, problem }),
      ),
    [mutateAsync],
  );
  return {
    send: mutate,
    settle,
    pending: mutation.isPending,
    problem: mutation.error,
    data: mutation.data,
    saved: mutation.isSuccess,
    /** What the running or last call was sent with. */
    variables: mutation.variables,
    reset: mutation.reset,
  };
}
