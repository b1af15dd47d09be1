"use client";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { z } from "zod";
import { sessionQueryKey, type SessionState } from "@/lib/hooks/use-session";

// In the browser zod must not compile validators with Function(): its probe for that is an
// eval a Content-Security-Policy without 'unsafe-eval' reports (and blocks). The server keeps
// the compiled validators.
if (typeof window !== "undefined") z.config({ jitless: true });

function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false },
    },
  });
}

/**
 * The page's query client. `initialSession` is what `/api/session` would answer, read while
 * the page was rendered: the studio appears at once instead of after a round trip.
 */
export function Providers({
  children,
  initialSession,
}: {
  children: ReactNode;
  initialSession?: SessionState;
}) {
  const [queryClient] = useState(() => {
    const client = makeQueryClient();
    if (initialSession) client.setQueryData(sessionQueryKey, initialSession);
    return client;
  });
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
