/**
 * The Interactions API of the local engine below HTTP: the real database (both drivers), the
 * real generation core, the real runs and their recovery. Answers are kept short. Kept whole:
 * every case shares one backend per database.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/gemini/api-error";
import type { Caller, OperationContext } from "@/lib/gemini/backend/contract";
import type { Interaction, InteractionEvent } from "@/lib/gemini/interactions/types";
import { testDatabaseKinds } from "@/lib/testing/databases";
import { tempData, type TempData } from "@/lib/testing/engine-files";
import { createLocalBackend, type LocalBackend } from "../local-backend";
import { wholeJson } from "@/lib/db/stores/interaction-store";
import { jsonTextPieces } from "@/lib/runtime/json-stringify-in-slices";
import { piecedText } from "@/lib/runtime/pieced-text";
import { conversationRootOf } from "./interaction-ids";

const alice: Caller = { ownerId: "key:alice" };
const bob: Caller = { ownerId: "key:bob" };
const QUICK = { max_output_tokens: 24, temperature: 0 };
/** Flash-Lite does not think unless asked: the quickest answers. */
const LITE = "gemini-2.5-flash-lite";
const AGENT = "deep-research-pro-preview-12-2025";

function context(caller: Caller = alice, signal = new AbortController().signal): OperationContext {
  return { caller, signal };
}

/** A create body as the API surface hands it to the engine: its JSON. */
function body(json: Record<string, unknown>): unknown {
  return json;
}

async function apiError(work: () => Promise<unknown>): Promise<ApiError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

async function collect(events: AsyncIterable<InteractionEvent>): Promise<InteractionEvent[]> {
  const list: InteractionEvent[] = [];
  for await (const event of events) list.push(event);
  return list;
}

function outputText(interaction: Interaction): string {
  return (interaction.steps ?? [])
    .flatMap((step) => (step.type === "model_output" ? (step.content ?? []) : []))
    .map((content) => (content.type === "text" ? content.text : ""))
    .join("");
}

describe.each(testDatabaseKinds())("interactions on the local engine ($dialect)", (kind) => {
  let data: TempData;
  let backend: LocalBackend;

  beforeEach(async () => {
    data = await tempData(kind);
    backend = createLocalBackend({
      stores: data.stores,
      dataDir: data.dataDir,
      sweepIntervalMs: 0,
      interactionRecoveryIntervalMs: 0,
    });
  });

  afterEach(async () => {
    await backend.close();
    await data.cleanup();
  });

  const ask = (input: unknown, extra: Record<string, unknown> = {}, caller = alice) =>
    backend.createInteraction(
      body({ model: LITE, input, generation_config: QUICK, ...extra }),
      context(caller),
    );

  it("answers a create as the service does, stores it, and shows its input when asked", async () => {
    const interaction = await ask("Tell me a short joke about programming.", {
      model: "gemini-2.5-flash",
      generation_config: { max_output_tokens: 200, thinking_level: "minimal" },
    });
    expect(interaction.id).toMatch(/^v1_[A-Za-z0-9_-]+$/);
    expect(conversationRootOf(interaction.id)).not.toBeNull();
    expect(Object.keys(interaction)).toEqual([
      "id",
      "status",
      "usage",
      "created",
      "updated",
      "service_tier",
      "steps",
      "object",
      "model",
    ]);
    expect(interaction.status).toMatch(/^(completed|incomplete)$/);
    expect(interaction.model).toBe("gemini-2.5-flash");
    expect(interaction.created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(interaction.steps?.[0]).toMatchObject({
      type: "thought",
      signature: expect.any(String),
    });
    expect(outputText(interaction).length).toBeGreaterThan(0);
    const usage = interaction.usage!;
    expect(usage.total_tokens).toBe(
      usage.total_input_tokens + usage.total_output_tokens + usage.total_thought_tokens,
    );
    expect(usage.input_tokens_by_modality).toEqual([{ modality: "text", tokens: 9 }]);
    expect(usage.total_cached_tokens).toBe(0);

    const read = await backend.getInteraction(
      interaction.id,
      { stream: false, includeInput: false },
      context(),
    );
    expect(read).toEqual(interaction);
    const withInput = await backend.getInteraction(
      interaction.id,
      { stream: false, includeInput: true },
      context(),
    );
    expect(withInput.input).toEqual([
      {
        type: "user_input",
        content: [{ type: "text", text: "Tell me a short joke about programming." }],
      },
    ]);
  });

  it("streams the service's events, and a stream read again resumes after any event", async () => {
    const events = await collect(
      backend.streamCreateInteraction(
        body({
          model: "gemini-2.5-flash",
          input: "Count to five.",
          generation_config: QUICK,
          stream: true,
        }),
        context(),
      ),
    );
    const types = events.map((event) => event.event_type);
    expect(types.slice(0, 3)).toEqual([
      "interaction.created",
      "interaction.status_update",
      "step.start",
    ]);
    expect(types.at(-1)).toBe("interaction.completed");
    expect(types).toContain("step.delta");
    // Foreground streams carry no event ids (recorded).
    expect(events.every((event) => event.event_id === undefined)).toBe(true);
    const id = (events[0] as { interaction: Interaction }).interaction.id;

    const again = await collect(
      backend.streamInteraction(id, { stream: true, includeInput: false }, context()),
    );
    expect(again.map(({ event_id: _id, ...event }) => event)).toEqual(events);
    expect(again.map((event) => event.event_id)).toEqual(
      again.map((_, index) => `evt_${index.toString(36)}`),
    );
    const resumed = await collect(
      backend.streamInteraction(
        id,
        { stream: true, includeInput: false, lastEventId: again[2]!.event_id },
        context(),
      ),
    );
    expect(resumed).toEqual(again.slice(3));
    const refused = await apiError(() =>
      collect(
        backend.streamInteraction(
          id,
          { stream: true, includeInput: false, lastEventId: "evt_zzzz" },
          context(),
        ),
      ),
    );
    expect(refused.httpStatus).toBe(400);
    expect(refused.message).toContain("last_event_id");
  });

  it("continues a stored interaction's conversation, and nobody else may", async () => {
    const first = await ask("My name is Amir.");
    const second = await ask("What is my name?", { previous_interaction_id: first.id });
    expect(conversationRootOf(second.id)).toBe(conversationRootOf(first.id));
    // The second prompt carries the first turn and its answer.
    expect(second.usage!.total_input_tokens).toBeGreaterThan(
      first.usage!.total_input_tokens + first.usage!.total_output_tokens,
    );
    const foreign = await apiError(() =>
      ask("What is my name?", { previous_interaction_id: first.id }, bob),
    );
    expect(foreign.httpStatus).toBe(400);
    expect(foreign.message).toContain("previous_interaction_id");
    for (const work of [
      () => backend.getInteraction(first.id, { stream: false, includeInput: false }, context(bob)),
      () => backend.cancelInteraction(first.id, context(bob)),
      () => backend.deleteInteraction(first.id, context(bob)),
      () => backend.getInteraction("v1_nothing", { stream: false, includeInput: false }, context()),
    ]) {
      expect((await apiError(work)).httpStatus).toBe(404);
    }
    await backend.deleteInteraction(first.id, context());
    expect(
      (
        await apiError(() =>
          backend.getInteraction(first.id, { stream: false, includeInput: false }, context()),
        )
      ).httpStatus,
    ).toBe(404);
  });

  it("reads a speech answer back from its stored pieces as it answered, here and on another instance", async () => {
    const speech = await backend.createInteraction(
      body({
        model: "gemini-2.5-flash-preview-tts",
        input: "Say slowly: the lighthouse keeper lit the lamp at dusk.",
        response_modalities: ["AUDIO"],
        generation_config: { max_output_tokens: 64 },
      }),
      context(),
    );
    const audio = (speech.steps ?? []).flatMap((step) =>
      step.type === "model_output"
        ? (step.content ?? []).flatMap((content) => (content.type === "audio" ? [content] : []))
        : [],
    );
    expect(audio.length).toBeGreaterThan(1);
    // The run holds the audio as its bytes (the events' and the result's alike), off the heap.
    for (const content of audio)
      expect(piecedText(content, "data")?.every((piece) => piece instanceof Uint8Array)).toBe(true);
    const answered = (await jsonTextPieces(speech)).join("");
    const audioCharacters = audio.reduce((sum, content) => sum + (content.data ?? "").length, 0);

    const query = { stream: false, includeInput: false };
    const read = await backend.getInteraction(speech.id, query, context());
    const step = read.steps!.find((item) => item.type === "model_output")!;
    // Read back in pieces, written from them.
    expect(piecedText((step as { content: object[] }).content[0]!, "data")).toBeDefined();
    expect((await jsonTextPieces(read)).join("")).toBe(answered);

    // The audio is stored once, for the stream's events, the result and the turns.
    const stored = await data.database.get<{ characters: number }>(
      "SELECT SUM(LENGTH(piece)) AS characters FROM interaction_pieces WHERE interaction_id = ?",
      [speech.id],
    );
    expect(Number(stored!.characters)).toBe(audioCharacters);

    const streamed = async (target: LocalBackend, lastEventId?: string) => {
      const texts: string[] = [];
      const stream = target.streamInteraction(
        speech.id,
        { stream: true, includeInput: false, ...(lastEventId ? { lastEventId } : {}) },
        context(),
      );
      for await (const event of stream) texts.push((await jsonTextPieces(event)).join(""));
      return texts;
    };
    const replay = await streamed(backend);
    const deltas = replay.filter((event) => event.includes('"type":"audio"'));
    expect(deltas.length).toBe(audio.length);
    expect(deltas.join("")).toContain(audio[1]!.data);
    const middle = JSON.parse(replay[3]!) as { event_id: string };
    expect(await streamed(backend, middle.event_id)).toEqual(replay.slice(4));

    const other = await data.reopen();
    const instance = createLocalBackend({
      stores: other.stores,
      dataDir: data.dataDir,
      sweepIntervalMs: 0,
      interactionRecoveryIntervalMs: 0,
    });
    try {
      const elsewhere = await instance.getInteraction(speech.id, query, context());
      expect((await jsonTextPieces(elsewhere)).join("")).toBe(answered);
      expect(await streamed(instance)).toEqual(replay);
      // A conversation continued elsewhere reads the turns' audio from the pieces too.
      const next = await instance.createInteraction(
        body({
          model: LITE,
          input: "Thank you.",
          previous_interaction_id: speech.id,
          generation_config: QUICK,
        }),
        context(),
      );
      expect(next.usage!.input_tokens_by_modality).toContainEqual(
        expect.objectContaining({ modality: "audio" }),
      );
      // And a turn further on, whose conversation reads the speech's pieces under its own id.
      const further = await backend.createInteraction(
        body({
          model: LITE,
          input: "Again.",
          previous_interaction_id: next.id,
          generation_config: QUICK,
        }),
        context(),
      );
      expect(further.usage!.input_tokens_by_modality).toContainEqual(
        expect.objectContaining({ modality: "audio" }),
      );
      await instance.deleteInteraction(speech.id, context());
    } finally {
      await instance.close();
    }
    const left = await data.database.get<{ count: number }>(
      "SELECT COUNT(*) AS count FROM interaction_pieces WHERE interaction_id = ?",
      [speech.id],
    );
    expect(Number(left!.count)).toBe(0);
  });

  it("keeps nothing of store: false", async () => {
    const interaction = await ask("Hello.", { store: false });
    expect(interaction.status).toMatch(/^(completed|incomplete)$/);
    const missing = await apiError(() =>
      backend.getInteraction(interaction.id, { stream: false, includeInput: false }, context()),
    );
    expect(missing.httpStatus).toBe(404);
  });

  it("runs an agent in the background, answered at once, polled, and stopped by a cancel", async () => {
    const started = await backend.createInteraction(
      body({ agent: AGENT, input: "Research the history of lighthouses.", background: true }),
      context(),
    );
    expect(started).toMatchObject({ status: "in_progress", object: "interaction", agent: AGENT });
    expect(started.steps).toBeUndefined();
    const cancelled = await backend.cancelInteraction(started.id, context());
    expect(cancelled.status).toBe("cancelled");
    const events = await collect(
      backend.streamInteraction(started.id, { stream: true, includeInput: false }, context()),
    );
    expect(events.at(-1)).toMatchObject({
      event_type: "interaction.completed",
      interaction: { status: "cancelled" },
    });
    const again = await backend.cancelInteraction(started.id, context());
    expect(again.status).toBe("cancelled");

    const finished = await backend.createInteraction(
      body({ agent: AGENT, input: "Research the history of lighthouses.", background: true }),
      context(),
    );
    let polled = finished;
    for (let attempt = 0; attempt < 600 && polled.status === "in_progress"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      polled = await backend.getInteraction(
        finished.id,
        { stream: false, includeInput: false },
        context(),
      );
    }
    expect(polled.status).toMatch(/^(completed|incomplete)$/);
    expect(polled.steps?.map((step) => step.type)).toContain("google_search_call");
    const ended = await apiError(() => backend.cancelInteraction(finished.id, context()));
    expect(ended.httpStatus).toBe(400);
  });

  it("refuses what the service refuses, naming the field", async () => {
    const background = await apiError(() => ask("Hi", { background: true }));
    expect(background.message).toBe(`Model '${LITE}' does not support background interactions.`);
    const foreground = await apiError(() =>
      backend.createInteraction(body({ agent: AGENT, input: "Hi" }), context()),
    );
    expect(foreground.message).toContain("background");
    const agentConfig = await apiError(() =>
      backend.createInteraction(
        body({ agent: AGENT, input: "Hi", background: true, generation_config: QUICK }),
        context(),
      ),
    );
    expect(agentConfig.message).toContain("'generation_config'");
    const unknownField = await apiError(() => ask("Hi", { temprature: 1 }));
    expect(unknownField.message).toContain("temprature");
    const badValue = await apiError(() => ask("Hi", { generation_config: { temperature: "hot" } }));
    expect(badValue.message).toContain("generation_config.temperature");
    const unknownModel = await apiError(() =>
      backend.createInteraction(body({ model: "gemini-0-nothing", input: "Hi" }), context()),
    );
    expect(unknownModel.httpStatus).toBe(404);
    const noInput = await apiError(() =>
      backend.createInteraction(body({ model: LITE }), context()),
    );
    expect(noInput.message).toContain("input");
  });

  it("takes up a run its instance left: again when nothing was answered, else failed", async () => {
    const store = data.stores.interactions;
    const base = {
      ownerId: alice.ownerId,
      previousId: null,
      model: "gemini-2.5-flash",
      agent: null,
      status: "in_progress" as const,
      background: false,
      requestJson: JSON.stringify({
        model: "models/gemini-2.5-flash",
        input: [{ type: "user_input", content: [{ type: "text", text: "Hi." }] }],
        generation_config: QUICK,
        store: true,
        stream: false,
        background: false,
      }),
      inputContentsJson: JSON.stringify([{ role: "user", parts: [{ text: "Hi." }] }]),
      outputContents: null,
      result: null,
      seed: 0,
      attempts: 1,
      eventCount: 0,
      createTime: Date.now(),
      updateTime: Date.now(),
    };
    await store.create({ ...base, id: "v1_fresh" }, [wholeJson("{}"), wholeJson("{}")]);
    await store.create({ ...base, id: "v1_partial" }, [
      wholeJson("{}"),
      wholeJson("{}"),
      wholeJson("{}"),
    ]);
    await store.create({ ...base, id: "v1_tired", attempts: 3 }, [
      wholeJson("{}"),
      wholeJson("{}"),
    ]);
    await backend.interactions.recover();
    await expect
      .poll(async () => (await store.get("v1_fresh"))?.status, { timeout: 20_000 })
      .toMatch(/^(completed|incomplete)$/);
    expect((await store.get("v1_partial"))?.status).toBe("failed");
    expect((await store.get("v1_tired"))?.status).toBe("failed");
    const events = await collect(
      backend.streamInteraction("v1_partial", { stream: true, includeInput: false }, context()),
    );
    expect(events.slice(-2).map((event) => event.event_type)).toEqual([
      "error",
      "interaction.completed",
    ]);
  });
});
