"use client";

import { queryOptions, useQuery } from "@tanstack/react-query";
import { readApiError } from "@/lib/gemini/client/read-api-error";
import type { PriceTable } from "@/lib/studio/price-table";

async function fetchPrices(): Promise<PriceTable> {
  const response = await fetch("/api/prices", { credentials: "same-origin" });
  if (!response.ok) throw await readApiError(response);
  return (await response.json()) as PriceTable;
}

/** The studio's price table (`/api/prices`): fixed for the server's life. */
export function usePrices() {
  return useQuery(
    queryOptions({ queryKey: ["prices"], queryFn: fetchPrices, staleTime: Infinity }),
  );
}
