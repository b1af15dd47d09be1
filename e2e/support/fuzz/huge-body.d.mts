/** Types of huge-body.mjs (an oversized body sent while the server's memory is sampled). */
export function sendHugeBody(
  server: { baseUrl: string; serverPid(): number },
  route: string,
  headers: Record<string, string>,
  total: number,
  declareLength: boolean,
): Promise<{
  outcome: { status: number; text: string } | { error: string };
  sentBytes: number;
  growthBytes: number;
  ms: number;
}>;
