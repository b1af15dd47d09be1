"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import type { ComponentProps, FocusEvent, PointerEvent } from "react";

type IntentLinkProps = Omit<ComponentProps<typeof Link>, "href" | "prefetch"> & { href: string };

/**
 * A link whose page is fetched ahead once the person shows they may follow it (the pointer over
 * it, or keyboard focus on it), instead of as soon as it is on screen. For the links every page
 * shows (the header's, the conversation list) and those that appear with a new conversation
 * ("Cache this chat…"): prefetched on sight, each page load had the server render every page
 * they lead to (the header's seven twice, once more when the session arrived), in the very
 * second a person sends the first message of a new chat (bench/README.md).
 */
export function IntentLink({ href, onPointerEnter, onFocus, ...props }: IntentLinkProps) {
  const router = useRouter();
  return (
    <Link
      {...props}
      href={href}
      prefetch={false}
      onPointerEnter={(event: PointerEvent<HTMLAnchorElement>) => {
        router.prefetch(href);
        onPointerEnter?.(event);
      }}
      onFocus={(event: FocusEvent<HTMLAnchorElement>) => {
        router.prefetch(href);
        onFocus?.(event);
      }}
    />
  );
}
