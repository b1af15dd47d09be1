/** Chromium's network emulation for a page: bandwidth limits both ways, or offline. */
import type { CDPSession, Page } from "@playwright/test";

export interface NetworkConditions {
  /** Bytes per second the page may receive; null or absent: no limit. */
  downloadBytesPerSecond?: number | null;
  /** Bytes per second the page may send; null or absent: no limit. */
  uploadBytesPerSecond?: number | null;
  /** Cuts the network, failing requests in flight. */
  offline?: boolean;
}

const sessions = new WeakMap<Page, CDPSession>();

/** Applies `conditions` to the page; one DevTools session per page, so each call replaces the previous conditions. */
export async function emulateNetwork(page: Page, conditions: NetworkConditions): Promise<void> {
  let session = sessions.get(page);
  if (!session) {
    session = await page.context().newCDPSession(page);
    await session.send("Network.enable");
    sessions.set(page, session);
  }
  await session.send("Network.emulateNetworkConditions", {
    offline: conditions.offline ?? false,
    latency: 0,
    downloadThroughput: conditions.downloadBytesPerSecond ?? -1,
    uploadThroughput: conditions.uploadBytesPerSecond ?? -1,
  });
}
