/**
 * The Interactions API as @google/genai 3.x calls it (`ai.interactions`, its generated
 * client in js-genai src/gaos/), unchanged but for `httpOptions.baseUrl` and the key, in both
 * modes: unary, streamed, resumed after a dropped stream, chained, and an agent in the
 * background polled and cancelled.
 */
import { expect } from "@playwright/test";
import * as genai3 from "google-genai-3";
import { defineClientSuite, type ClientCase } from "./client-suite";
import { INTERACTION_AGENT, INTERACTION_CONFIG, MODEL, SYSTEM_INSTRUCTION } from "./fixtures";

type Interaction = genai3.Interactions.Interaction;
type Event = genai3.Interactions.InteractionSSEEvent;

const connect = (baseUrl: string, apiKey: string) =>
  new genai3.GoogleGenAI({ apiKey, httpOptions: { baseUrl } });

function modelText(interaction: Interaction): string {
  return (interaction.steps ?? [])
    .flatMap((step) => (step.type === "model_output" ? (step.content ?? []) : []))
    .map((content) => (content.type === "text" ? content.text : ""))
    .join("");
}

function streamedText(events: Event[]): string {
  return events
    .map((event) =>
      event.event_type === "step.delta" && event.delta.type === "text" ? event.delta.text : "",
    )
    .join("");
}

async function until(
  read: () => Promise<Interaction>,
  done: (interaction: Interaction) => boolean,
): Promise<Interaction> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const interaction = await read();
    if (done(interaction)) return interaction;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the interaction did not get there");
}

const cases: ClientCase[] = [
  {
    name: "interactions: create and get",
    async run({ baseUrl, apiKey }) {
      const ai = connect(baseUrl, apiKey);
      const interaction = await ai.interactions.create({
        model: MODEL,
        input: "Tell me a short joke about programming.",
        system_instruction: SYSTEM_INSTRUCTION,
        generation_config: INTERACTION_CONFIG,
      });
      expect(interaction.id).toMatch(/^v1_/);
      expect(["completed", "incomplete"]).toContain(interaction.status);
      expect(interaction.output_text?.length).toBeGreaterThan(0);
      expect(interaction.steps?.[0]?.type).toBe("thought");
      const usage = interaction.usage!;
      expect(usage.total_tokens).toBe(
        usage.total_input_tokens! + usage.total_output_tokens! + usage.total_thought_tokens!,
      );
      const read = await ai.interactions.get(interaction.id, { include_input: true });
      expect(read.output_text).toBe(interaction.output_text);
      expect(read.input).toEqual([
        {
          type: "user_input",
          content: [{ type: "text", text: "Tell me a short joke about programming." }],
        },
      ]);
      await ai.interactions.delete(interaction.id);
      await expect(ai.interactions.get(interaction.id)).rejects.toMatchObject({ status: 404 });
    },
  },
  {
    name: "interactions: stream",
    async run({ baseUrl, apiKey }) {
      const ai = connect(baseUrl, apiKey);
      const events: Event[] = [];
      const stream = await ai.interactions.create({
        model: MODEL,
        input: "Tell me about lighthouses.",
        generation_config: INTERACTION_CONFIG,
        stream: true,
      });
      for await (const event of stream) events.push(event);
      const types = events.map((event) => event.event_type);
      expect(types.slice(0, 2)).toEqual(["interaction.created", "interaction.status_update"]);
      expect(types).toContain("step.start");
      expect(types.at(-1)).toBe("interaction.completed");
      const completed = events.at(-1) as genai3.Interactions.InteractionCompletedEvent;
      const stored = await ai.interactions.get(completed.interaction.id);
      expect(streamedText(events)).toBe(stored.output_text ?? "");
    },
  },
  {
    name: "interactions: a dropped stream resumes after its last event",
    async run({ baseUrl, apiKey }) {
      const ai = connect(baseUrl, apiKey);
      // A stream that can be resumed carries event ids: an agent's, in the background.
      const stream = await ai.interactions.create({
        agent: INTERACTION_AGENT,
        input: "Research the history of lighthouses.",
        background: true,
        stream: true,
      });
      const before: Event[] = [];
      for await (const event of stream) {
        before.push(event);
        if (before.length === 4) break; // the connection is dropped here
      }
      const created = before[0] as genai3.Interactions.InteractionCreatedEvent;
      const lastEventId = before.at(-1)!.event_id;
      expect(lastEventId).toBeTruthy();
      const after: Event[] = [];
      for await (const event of await ai.interactions.get(created.interaction.id, {
        stream: true,
        last_event_id: lastEventId,
      }))
        after.push(event);
      expect(after[0]?.event_id).not.toBe(lastEventId);
      expect(after.at(-1)?.event_type).toBe("interaction.completed");
      const whole: Event[] = [];
      for await (const event of await ai.interactions.get(created.interaction.id, { stream: true }))
        whole.push(event);
      expect([...before, ...after].map((event) => event.event_id)).toEqual(
        whole.map((event) => event.event_id),
      );
    },
  },
  {
    name: "interactions: previous_interaction_id continues the conversation",
    async run({ baseUrl, apiKey }) {
      const ai = connect(baseUrl, apiKey);
      const first = await ai.interactions.create({
        model: MODEL,
        input: "Hi, my name is Amir.",
        generation_config: INTERACTION_CONFIG,
      });
      const second = await ai.interactions.create({
        model: MODEL,
        input: { type: "text", text: "What is my name? Reply with exactly AMIR." },
        previous_interaction_id: first.id,
        generation_config: INTERACTION_CONFIG,
      });
      expect(second.usage!.total_input_tokens!).toBeGreaterThan(
        first.usage!.total_input_tokens! + first.usage!.total_output_tokens!,
      );
      // Both belong to one conversation: the ids share their first field (recorded).
      expect(second.id.slice(0, 30)).toBe(first.id.slice(0, 30));
      expect(modelText(second).length).toBeGreaterThan(0);
    },
  },
  {
    name: "interactions: an agent in the background, polled, and cancelled",
    async run({ baseUrl, apiKey }) {
      const ai = connect(baseUrl, apiKey);
      const started = await ai.interactions.create({
        agent: INTERACTION_AGENT,
        input: "Research the history of Google TPUs.",
        background: true,
      });
      expect(started.status).toBe("in_progress");
      const cancelled = await ai.interactions.cancel(started.id);
      expect(cancelled.status).toBe("cancelled");
      expect((await ai.interactions.get(started.id)).status).toBe("cancelled");

      const quick = await ai.interactions.create({
        agent: INTERACTION_AGENT,
        input: "Research the history of lighthouses.",
        background: true,
      });
      const done = await until(
        () => ai.interactions.get(quick.id),
        (interaction) => interaction.status !== "in_progress",
      );
      expect(["completed", "incomplete"]).toContain(done.status);
      await expect(ai.interactions.cancel(quick.id)).rejects.toMatchObject({ status: 400 });
    },
  },
  {
    name: "interactions: bad input answered in this API's error body",
    async run({ baseUrl, apiKey }) {
      const ai = connect(baseUrl, apiKey);
      await expect(
        ai.interactions.create({ model: MODEL, input: "Hi", background: true }),
      ).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining(`Model '${MODEL}' does not support background`),
      });
      await expect(ai.interactions.get("v1_not-an-interaction")).rejects.toMatchObject({
        status: 404,
      });
      await expect(
        ai.interactions.create({
          model: MODEL,
          input: "Hi",
          previous_interaction_id: "v1_not-an-interaction",
        }),
      ).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining("previous_interaction_id"),
      });
    },
  },
];

defineClientSuite("@google/genai 3.x interactions", cases);
