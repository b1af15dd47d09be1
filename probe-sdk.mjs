import * as genai from "google-genai-3";
const ai = new genai.GoogleGenAI({ apiKey: process.argv[3] ?? "genstudio-dev-key", httpOptions: { baseUrl: process.argv[2] ?? "http://127.0.0.1:3917" } });
const MODEL = "gemini-2.5-flash-lite";
const unary = await ai.interactions.create({ model: MODEL, input: "Say hello.", generation_config: { max_output_tokens: 30 } });
console.log("unary", unary.id, unary.status, JSON.stringify(unary.output_text), unary.usage);
// stream, drop after 4 events
const stream = await ai.interactions.create({ model: MODEL, input: "Count from one to twenty in words.", generation_config: { max_output_tokens: 60 }, stream: true });
let id; const seen = [];
for await (const event of stream) { seen.push(event.event_type); if (event.event_type === "interaction.created") id = event.interaction.id; if (seen.length === 5) break; }
console.log("dropped after", seen);
const again = await ai.interactions.get(id, { stream: true });
const all = []; for await (const e of again) all.push(e);
console.log("replay", all.length, all[0].event_id, all.at(-1).event_type);
const resumed = await ai.interactions.get(id, { stream: true, last_event_id: all[4].event_id });
const rest = []; for await (const e of resumed) rest.push(e);
console.log("resumed", rest.length, rest[0].event_id, rest.at(-1).event_type, rest.at(-1).interaction?.status);
// chaining
const first = await ai.interactions.create({ model: MODEL, input: "Hi, my name is Amir.", generation_config: { max_output_tokens: 20 } });
const second = await ai.interactions.create({ model: MODEL, input: "What is my name?", previous_interaction_id: first.id, generation_config: { max_output_tokens: 20 } });
console.log("chain", first.usage.total_input_tokens, second.usage.total_input_tokens);
// background agent + cancel
const bg = await ai.interactions.create({ agent: "deep-research-pro-preview-12-2025", input: "Research lighthouses.", background: true });
console.log("bg", bg.status, bg.agent);
const cancelled = await ai.interactions.cancel(bg.id);
console.log("cancelled", cancelled.status);
const polled = await ai.interactions.get(bg.id);
console.log("polled", polled.status);
// errors
for (const work of [
  () => ai.interactions.create({ model: MODEL, input: "x", background: true }),
  () => ai.interactions.get("v1_nothing"),
  () => ai.interactions.create({ model: MODEL, input: "x", generation_config: { temperature: "hot" } }),
]) {
  try { await work(); console.log("no error!"); } catch (error) { console.log("error", error.constructor.name, error.status ?? error.statusCode, error.message); }
}
await ai.interactions.delete(first.id);
try { await ai.interactions.get(first.id); } catch (e) { console.log("after delete", e.status ?? e.statusCode, e.message); }
