import { formatNumber } from "@/lib/studio/number-format";
import Link from "next/link";
import { serverEnv } from "@/lib/server/config/env";
import { LISTED_MODELS } from "@/lib/engine/catalog";
import { modelFacts } from "@/lib/server/models/model-facts";
import { groupByPurpose } from "@/lib/studio/model-facts";

const SECTIONS = [
  {
    href: "/chat",
    title: "Chat",
    text: "Streamed answers, every generation setting, safety ratings and blocked candidates shown plainly.",
  },
  {
    href: "/files",
    title: "Files",
    text: "Drag-and-drop uploads with the resumable protocol; media is probed until ACTIVE.",
  },
  {
    href: "/caches",
    title: "Caches",
    text: "Create, extend and delete cached contents and use them in new chats.",
  },
];

export default function HomePage() {
  const env = serverEnv();
  const local = env.mode === "local";
  return (
    <div className="mx-auto flex w-full max-w-4xl flex-col gap-8 p-6">
      <section className="flex flex-col gap-2">
        <h1 className="text-2xl font-semibold tracking-tight">Genstudio</h1>
        <p className="text-zinc-600 dark:text-zinc-400">
          {local
            ? "Running on the local engine: an offline implementation of the whole API. Its answers come from a small statistical model, an honest stand-in for testing clients, not a real assistant."
            : "Running as a gateway: requests go to the configured upstream service with a key that never leaves this server."}
        </p>
      </section>
      <section aria-label="Studio pages" className="grid gap-4 sm:grid-cols-3">
        {SECTIONS.map((section) => (
          <Link
            key={section.href}
            href={section.href}
            className="rounded-lg border border-zinc-200 p-4 hover:border-zinc-400 dark:border-zinc-800 dark:hover:border-zinc-600"
          >
            <h2 className="font-medium">{section.title}</h2>
            <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{section.text}</p>
          </Link>
        ))}
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="font-medium">Use it from code</h2>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          The API is served at this origin under <code>/v1beta</code> (and <code>/v1</code>). Point
          the official SDK at it:
        </p>
        <pre className="overflow-x-auto rounded-md bg-zinc-100 p-3 text-xs dark:bg-zinc-900">
          {`new GoogleGenAI({ apiKey: "<studio key>", httpOptions: { baseUrl: "<this origin>" } })`}
        </pre>
        {env.developmentDefaults && (
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Development default (loopback only, nothing configured): the studio key is{" "}
            <code>genstudio-dev-key</code>.
          </p>
        )}
      </section>
      {local && (
        <section className="flex flex-col gap-3">
          <h2 className="font-medium">Local models</h2>
          {groupByPurpose(modelFacts(LISTED_MODELS)).map((group) => (
            <div key={group.purpose} className="flex flex-col gap-1">
              <h3 className="text-sm font-medium text-zinc-700 dark:text-zinc-300">
                {group.label}
              </h3>
              <ul className="grid gap-1 text-sm sm:grid-cols-2">
                {group.models.map(({ model }) => (
                  <li key={model.name} className="text-zinc-700 dark:text-zinc-300">
                    <span className="font-mono">{model.name.replace("models/", "")}</span>
                    <span className="text-zinc-600 dark:text-zinc-400">
                      {" "}
                      · {formatNumber(model.inputTokenLimit ?? 0)} in /{" "}
                      {formatNumber(model.outputTokenLimit ?? 0)} out
                    </span>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      )}
    </div>
  );
}
