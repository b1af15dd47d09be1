import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { StudioHeader } from "@/components/shell/studio-header";
import { SessionGate } from "@/components/shell/session-gate";
import { serverEnv } from "@/lib/server/config/env";
import { pageSessionState } from "@/lib/server/pages/page-session";
import { Providers } from "./providers";
import "./globals.css";

export const metadata: Metadata = {
  title: "Genstudio",
  description: "Self-hosted studio, gateway and offline engine for content generation",
  manifest: "/manifest.webmanifest",
  icons: {
    icon: [
      { url: "/icon.svg", type: "image/svg+xml" },
      {
        url: "/icon-light-32.png",
        sizes: "32x32",
        type: "image/png",
        media: "(prefers-color-scheme: light)",
      },
      {
        url: "/icon-dark-32.png",
        sizes: "32x32",
        type: "image/png",
        media: "(prefers-color-scheme: dark)",
      },
    ],
    apple: "/apple-touch-icon.png",
  },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export const dynamic = "force-dynamic";

// Applies the saved or system colour scheme before first paint, so dark mode never flashes.
const themeScript = `try{var t=localStorage.getItem("genstudio-theme");if(t==="dark"||(!t&&matchMedia("(prefers-color-scheme: dark)").matches))document.documentElement.classList.add("dark")}catch(e){}`;

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { mode } = serverEnv();
  // The page's Content-Security-Policy nonce (proxy.ts): inline scripts run only with it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  const initialSession = await pageSessionState();
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="flex h-full flex-col bg-white text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <a
          href="#main-content"
          className="sr-only z-50 rounded-md bg-zinc-900 px-3 py-2 text-sm text-white focus:not-sr-only focus:absolute focus:top-2 focus:left-2 dark:bg-zinc-100 dark:text-zinc-900"
        >
          Skip to main content
        </a>
        <Providers initialSession={initialSession}>
          <StudioHeader mode={mode} />
          <SessionGate>
            <main
              id="main-content"
              tabIndex={-1}
              className="flex min-h-0 flex-1 flex-col outline-none"
            >
              {children}
            </main>
          </SessionGate>
        </Providers>
      </body>
    </html>
  );
}
