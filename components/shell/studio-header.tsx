"use client";

import { usePathname } from "next/navigation";
import { useSession } from "@/lib/hooks/use-session";
import { SignOutButtons } from "./sign-out-buttons";
import { WorkspaceBanner } from "./workspace-banner";
import { ThemeToggle } from "./theme-toggle";
import { IntentLink } from "@/components/ui/intent-link";
import { leaveOpenedInPlace } from "@/lib/hooks/use-open-conversation";

const NAVIGATION = [
  { href: "/chat", label: "Chat" },
  { href: "/files", label: "Files" },
  { href: "/caches", label: "Caches" },
  { href: "/emulator", label: "Emulator" },
];

export function StudioHeader({ mode }: { mode: "local" | "upstream" }) {
  const pathname = usePathname();
  const session = useSession();
  const navigation = [
    ...NAVIGATION,
    ...(session.data?.authenticated
      ? [
          { href: "/usage", label: "Usage" },
          { href: "/logs", label: "Logs" },
          { href: "/account", label: "Account" },
        ]
      : []),
    ...(session.data?.person?.role === "admin" ? [{ href: "/admin", label: "Admin" }] : []),
  ];
  return (
    <>
      <header className="flex flex-wrap items-center gap-2 border-b border-zinc-200 px-2 py-2 sm:flex-nowrap sm:gap-4 sm:px-4 dark:border-zinc-800">
        <IntentLink href="/" className="font-semibold tracking-tight">
          Genstudio
        </IntentLink>
        {/* On a phone the pages take a row of their own, so none is pushed out of reach. */}
        <nav
          aria-label="Main"
          className="order-last flex w-full min-w-0 gap-1 overflow-x-auto sm:order-none sm:w-auto"
        >
          {navigation.map((item) => {
            const current = pathname === item.href || pathname.startsWith(`${item.href}/`);
            return (
              <IntentLink
                key={item.href}
                href={item.href}
                aria-current={current ? "page" : undefined}
                onClick={item.href === "/chat" ? leaveOpenedInPlace : undefined}
                className={`shrink-0 rounded-md px-2 py-1.5 text-sm sm:px-3 ${current ? "bg-zinc-200 font-medium dark:bg-zinc-800" : "text-zinc-600 hover:bg-zinc-100 dark:text-zinc-400 dark:hover:bg-zinc-900"}`}
              >
                {item.label}
              </IntentLink>
            );
          })}
        </nav>
        <div className="ml-auto flex shrink-0 items-center gap-1 sm:gap-2">
          <ModeBadge mode={mode} />
          <SignOutButtons />
          <ThemeToggle />
        </div>
      </header>
      <WorkspaceBanner />
    </>
  );
}

function ModeBadge({ mode }: { mode: "local" | "upstream" }) {
  const local = mode === "local";
  return (
    <span
      data-testid="mode-badge"
      title={
        local
          ? "Answers come from the offline local engine, an honest stand-in, not a real model."
          : "Requests go to the configured upstream service."
      }
      className={`rounded-full px-2.5 py-0.5 text-xs font-medium ${local ? "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-200" : "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-200"}`}
    >
      {local ? "Local" : "Upstream"}
      <span className="hidden sm:inline">{local ? " engine" : ""}</span>
    </span>
  );
}
