"use client";

import { useState } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StepUpProvider } from "@/components/auth/step-up";

/**
 * TanStack Query for the few places the browser polls, and for every form's or button's
 * call to the app (useApiMutation in components/use-api-mutation.ts). Nothing is persisted:
 * the cache lives in memory and dies with the page (revealed codes must never outlive
 * their view, so a mutation leaves the cache with the form that shows it).
 */
export function Providers({ children }: { children: React.ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: {
          queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 5_000 },
          mutations: { retry: false },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <StepUpProvider>{children}</StepUpProvider>
    </QueryClientProvider>
  );
}
