/**
 * The Interactions API's endpoints for the fuzzer (create, get with its stream and resume
 * query, cancel, delete): plausible bodies in every input form, steps, settings and tools,
 * broken at one spot half of the time, junk, and ids of the owner's, the other tenant's, and
 * none. Bodies ask for short answers, so a run is spent on checks rather than on generation.
 */
import fc from "fast-check";
import {
  anyNumber,
  anyString,
  bodyArbitrary,
  mutated,
  promptText,
  segmentArbitrary,
} from "./values.mjs";

const API_VERSIONS = ["/v1beta", "/v1"];
const AGENTS = [
  "deep-research-pro-preview-12-2025",
  "antigravity-preview-05-2026",
  "no-such-agent",
];
const MIME_TYPES = ["image/png", "text/plain", "application/pdf", "audio/wav", "", "nonsense"];

function idFrom(ids) {
  return fc.oneof(
    { arbitrary: anyString, weight: 2 },
    { arbitrary: fc.constantFrom("v1_", "v1_AAAA", "interactions/x", "..", "%2F"), weight: 1 },
    ...(ids.length ? [{ arbitrary: fc.constantFrom(...ids), weight: 5 }] : []),
  );
}

function contentArbitrary(world) {
  const uri = fc.oneof(
    anyString,
    ...[...world.fileNames, ...world.otherFileNames].flatMap((name) => [
      fc.constant(name),
      fc.constant(`http://${world.host}/v1beta/${name}`),
    ]),
    fc.constant("https://example.com/picture.png"),
  );
  return fc.oneof(
    { arbitrary: fc.record({ type: fc.constant("text"), text: promptText }), weight: 6 },
    {
      arbitrary: fc.record({
        type: fc.constantFrom("image", "document", "audio", "video"),
        uri,
        mime_type: fc.constantFrom(...MIME_TYPES),
      }),
      weight: 2,
    },
    {
      arbitrary: fc.record(
        {
          type: fc.constantFrom("image", "audio"),
          data: fc.oneof(fc.base64String({ maxLength: 120 }), fc.constant("not base64")),
          mime_type: fc.constantFrom(...MIME_TYPES),
          resolution: fc.constantFrom("low", "high", "ultra_high", "enormous"),
        },
        { requiredKeys: ["type", "data"] },
      ),
      weight: 1,
    },
  );
}

function stepArbitrary(world) {
  const contents = fc.array(contentArbitrary(world), { maxLength: 3 });
  return fc.oneof(
    fc.record({ type: fc.constant("user_input"), content: contents }),
    fc.record({ type: fc.constant("model_output"), content: contents }),
    fc.record({ type: fc.constant("thought"), signature: fc.base64String({ maxLength: 60 }) }),
    fc.record({
      type: fc.constant("function_call"),
      id: anyString,
      name: fc.constantFrom("get_weather", ""),
      arguments: fc.jsonValue({ maxDepth: 2 }),
    }),
    fc.record({
      type: fc.constant("function_result"),
      call_id: anyString,
      result: fc.oneof(promptText, fc.jsonValue({ maxDepth: 2 })),
    }),
    fc.record({
      type: fc.constantFrom("google_search_call", "mcp_server_tool_call"),
      id: anyString,
    }),
  );
}

function inputArbitrary(world) {
  return fc.oneof(
    { arbitrary: promptText, weight: 6 },
    { arbitrary: contentArbitrary(world), weight: 2 },
    { arbitrary: fc.array(contentArbitrary(world), { minLength: 1, maxLength: 3 }), weight: 2 },
    { arbitrary: fc.array(stepArbitrary(world), { minLength: 1, maxLength: 4 }), weight: 2 },
  );
}

const generationConfig = fc.record(
  {
    max_output_tokens: fc.oneof(
      { arbitrary: fc.integer({ min: 1, max: 48 }), weight: 6 },
      { arbitrary: anyNumber, weight: 1 },
    ),
    temperature: fc.oneof(fc.double({ min: 0, max: 2, noNaN: true }), anyNumber),
    thinking_level: fc.constantFrom("minimal", "low", "high", "extreme"),
    thinking_summaries: fc.constantFrom("auto", "none", "maybe"),
    stop_sequences: fc.array(fc.constantFrom(".", "sea", ""), { maxLength: 3 }),
    tool_choice: fc.oneof(
      fc.constantFrom("auto", "any", "none", "sometimes"),
      fc.record({
        allowed_tools: fc.record({
          mode: fc.constantFrom("any", "auto"),
          tools: fc.constant(["get_weather"]),
        }),
      }),
    ),
  },
  { requiredKeys: ["max_output_tokens"] },
);

function toolArbitrary() {
  return fc.oneof(
    fc.constant({
      type: "function",
      name: "get_weather",
      description: "The weather in a city.",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    }),
    fc.record({
      type: fc.constant("function"),
      name: anyString,
      parameters: fc.jsonValue({ maxDepth: 3 }),
    }),
    fc.constantFrom({ type: "google_search" }, { type: "code_execution" }, { type: "url_context" }),
    fc.record({
      type: fc.constant("file_search"),
      file_search_store_names: fc.array(anyString, { maxLength: 2 }),
    }),
    fc.constantFrom({ type: "mcp_server", url: "http://127.0.0.1:1" }, { type: "computer_use" }),
  );
}

function createBodyArbitrary(world) {
  const models = world.models.length ? world.models.slice(0, 12) : ["gemini-2.5-flash-lite"];
  const shared = {
    input: inputArbitrary(world),
    system_instruction: promptText,
    tools: fc.array(toolArbitrary(), { maxLength: 2 }),
    stream: fc.oneof(fc.boolean(), fc.constant("yes")),
    store: fc.boolean(),
    previous_interaction_id: idFrom([...world.interactionIds, ...world.otherInteractionIds]),
    response_format: fc.oneof(
      fc.constant({ type: "text", mime_type: "application/json", schema: { type: "object" } }),
      fc.jsonValue({ maxDepth: 2 }),
    ),
  };
  return fc.oneof(
    {
      arbitrary: fc.record(
        {
          model: fc.oneof(fc.constantFrom("gemini-2.5-flash-lite", ...models), anyString),
          generation_config: generationConfig,
          background: fc.boolean(),
          cached_content: fc.constantFrom(
            ...world.cacheNames,
            ...world.otherCacheNames,
            "cachedContents/none",
          ),
          ...shared,
        },
        { requiredKeys: ["model", "input", "generation_config"] },
      ),
      weight: 6,
    },
    {
      arbitrary: fc.record(
        { agent: fc.constantFrom(...AGENTS), background: fc.boolean(), ...shared },
        { requiredKeys: ["agent", "input"] },
      ),
      weight: 1,
    },
  );
}

/**
 * The endpoints, labelled as a run reports them. `build` assembles a request from its parts
 * and `credentials` draws who sends it (requests.mjs's own).
 */
export function interactionEndpoints(world, { build, credentials, method }) {
  const version = fc.constantFrom(...API_VERSIONS);
  const id = segmentArbitrary(idFrom([...world.interactionIds, ...world.otherInteractionIds]));
  // The owner never deletes its world interactions here, so later requests keep finding them.
  const deletable = segmentArbitrary(idFrom(world.otherInteractionIds));
  const getQuery = fc.array(
    fc.tuple(
      fc.constantFrom("stream", "last_event_id", "lastEventId", "include_input"),
      fc.oneof(
        fc.constantFrom("true", "false", "True", "", "evt_0", "evt_1", "evt_zz", "evt_"),
        anyString,
      ),
    ),
    { maxLength: 3 },
  );
  return [
    fc
      .record({
        version,
        credentials: credentials(world),
        method: method("POST"),
        body: bodyArbitrary(mutated(createBodyArbitrary(world))),
      })
      .map(({ version, credentials, method, body }) =>
        build({
          label: "interactions.create",
          method,
          path: `${version}/interactions`,
          credentials,
          contentType: "application/json",
          body,
        }),
      ),
    fc
      .record({
        version,
        id,
        query: getQuery,
        credentials: credentials(world),
        method: method("GET"),
      })
      .map(({ version, id, query, credentials, method }) =>
        build({
          label: "interactions.get",
          method: method === "DELETE" ? "GET" : method,
          path: `${version}/interactions/${id}`,
          query,
          credentials,
        }),
      ),
    fc
      .record({ version, id, credentials: credentials(world) })
      .map(({ version, id, credentials }) =>
        build({
          label: "interactions.cancel",
          method: "POST",
          path: `${version}/interactions/${id}/cancel`,
          credentials,
        }),
      ),
    fc
      .record({ version, id: deletable, credentials: credentials(world) })
      .map(({ version, id, credentials }) =>
        build({
          label: "interactions.delete",
          method: "DELETE",
          path: `${version}/interactions/${id}`,
          credentials,
        }),
      ),
  ];
}
