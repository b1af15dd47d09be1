// The token API through the real worker threads and the real vocabularies: the spec's fox
// example, the recorded token facts, ids and decoding, cancellation and fair scheduling.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { findModel } from "@/lib/engine/catalog";
import { traitsFromModel, type ModelTraits, type TokenizerFamily } from "@/lib/gemini/model-traits";
import type { Content, Part, Tool, ToolConfig } from "@/lib/gemini/types";
import { readGenerateContentRequest } from "@/lib/gemini/validate";
import {
  controlTokenIds,
  countRequestTokens,
  countTexts,
  decodeTokenIds,
  encodeText,
  encodeTexts,
  terminateTokenizerWorkers,
  vocabularyPieces,
} from "./index";
import { sharedCodeUnits } from "@/lib/runtime/encoded-text";
import { laneFor } from "./tokenizer-client";

const FOX = "The quick brown fox jumps over the lazy dog.";

function traitsOf(model: string): ModelTraits {
  const name = model.replace(/^models\//, "");
  return findModel(name)?.traits ?? traitsFromModel({ name: `models/${name}` });
}

/** About `bytes` of English-like text, deterministic, with varied words so caching cannot hide the cost. */
function longText(bytes: number): string {
  const words = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "token",
    "counting",
    "service",
    "studio",
    "engine",
    "river",
    "mountain",
    "quickly",
    "the",
    "of",
    "and",
  ];
  let seed = 7;
  const parts: string[] = [];
  let length = 0;
  while (length < bytes) {
    seed = (seed * 48_271) % 2_147_483_647;
    const word = `${words[seed % words.length]}${seed % 97}`;
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(" ").slice(0, bytes);
}

afterAll(async () => {
  await terminateTokenizerWorkers();
});

describe("countRequestTokens on text", () => {
  it("counts the fox sentence as 11 on gemini-2.5-flash (10 pieces + 1 role token)", async () => {
    const response = await countRequestTokens(findModel("gemini-2.5-flash")!.traits, {
      contents: [{ role: "user", parts: [{ text: FOX }] }],
    });
    expect(response).toEqual({
      totalTokens: 11,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 11 }],
    });
  });

  it("counts the fox sentence as 10 on gemini-2.0-flash (no role token)", async () => {
    const response = await countRequestTokens(findModel("gemini-2.0-flash")!.traits, {
      contents: [{ role: "user", parts: [{ text: FOX }] }],
    });
    expect(response).toEqual({
      totalTokens: 10,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: 10 }],
    });
  });

  it("counts parts separately, one role token per Content, the system instruction as one Content", async () => {
    const traits = findModel("gemini-2.5-flash")!.traits;
    const [fox, hello, sky] = await countTexts("gemma3", [FOX, "Hello", "why is the sky blue?"]);
    const response = await countRequestTokens(traits, {
      systemInstruction: { parts: [{ text: "Hello" }] },
      contents: [
        { role: "user", parts: [{ text: FOX }, { text: "why is the sky blue?" }] },
        { role: "model", parts: [{ text: "Hello" }] },
      ],
    });
    expect(response.totalTokens).toBe(fox! + sky! + 2 * hello! + 3);
    const older = await countRequestTokens(findModel("gemini-2.0-flash")!.traits, {
      contents: [
        { role: "user", parts: [{ text: FOX }] },
        { role: "model", parts: [{ text: FOX }] },
      ],
    });
    expect(older.totalTokens).toBe(20);
  });

  const declaration = {
    name: "get_weather",
    description: "Weather of a city",
    parameters: { type: "OBJECT", properties: { city: { type: "STRING" } } },
  };
  const call = { name: "get_weather", args: { city: "Paris" } };
  const answer = { name: "get_weather", response: { temperature: 21 } };
  const turns = [
    { role: "model", parts: [{ functionCall: call }] },
    { role: "user", parts: [{ functionResponse: answer }] },
  ];

  it("counts function parts on 2.0 as their values alone, a number as one token", async () => {
    const values = await countTexts("gemma", [
      ...["get_weather", "Weather of a city", "OBJECT", "city", "STRING"],
      ...["get_weather", "city", "Paris"],
      ...["get_weather", "temperature"],
    ]);
    const response = await countRequestTokens(findModel("gemini-2.0-flash")!.traits, {
      contents: turns,
      tools: [{ functionDeclarations: [declaration] }, { googleSearch: {} } as never],
      toolConfig: { functionCallingConfig: { mode: "ANY" } },
    });
    expect(response.totalTokens).toBe(values.reduce((sum, count) => sum + count, 0) + 1);
  });

  it("counts function parts on 3.x as marked-up texts, each marker one token", async () => {
    const texts = await countTexts("gemma3", [
      ...["declaration:get_weather{description:", "Weather of a city"],
      ...[",parameters:{properties:{city:{type:", "STRING", "}},type:", "OBJECT", "}}"],
      ...["call:get_weather{city:", "Paris", "}"],
      "response:get_weather{temperature:21}",
    ]);
    const markers = 2 + 6 + (2 + 2) + 2;
    const response = await countRequestTokens(findModel("gemini-3-flash-preview")!.traits, {
      contents: turns,
      tools: [{ functionDeclarations: [declaration] }, { urlContext: {} }],
    });
    const roles = turns.length;
    expect(response.totalTokens).toBe(
      texts.reduce((sum, count) => sum + count, 0) + markers + roles,
    );
  });

  it("counts function declarations on 2.5 as Python signatures: the recorded JSON Schema declarations exactly", async () => {
    const exchanges = readFileSync(
      path.resolve("e2e/fixtures/recorded-exchanges/exchanges.jsonl"),
      "utf8",
    )
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedExchange);
    const recorded = [
      // Two optional number parameters and a description (promptTokenCount 81).
      "AFC_Streaming_Tests_chat_stream_AFC_enabled_AFC_max_calls_exceeded_Google_AI_can_continue_after_max_calls_exceeded.http.log#0",
      // A nullable union type, `$schema` and `additionalProperties` (promptTokenCount 60).
      "MCP_related_client_Tests_generateContent_ML_Dev_test_with_greeter_server_(parameter_as_nullable_union_type).http.log#0",
    ].map((id) => exchanges.find((exchange) => exchange.id.endsWith(id))!);
    for (const { requestBody, responseBody } of recorded) {
      const counted = await countRequestTokens(findModel("gemini-2.5-flash")!.traits, {
        contents: requestBody.contents,
        tools: requestBody.tools,
        toolConfig: requestBody.toolConfig,
      });
      const service = Number([...responseBody.matchAll(/"promptTokenCount": ?(\d+)/g)].at(-1)![1]);
      expect(counted.totalTokens).toBe(service);
    }
  });

  it("counts nested objects on 2.5 as dataclasses: the recorded declarations with objects inline, in arrays and by $ref exactly", async () => {
    const exchanges = readFileSync(
      path.resolve("e2e/fixtures/recorded-exchanges-agents/exchanges.jsonl"),
      "utf8",
    )
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as RecordedExchange);
    const recorded = [
      // An inline object with a description and a null default (promptTokenCount 154).
      "test_ref_sibling_wire_contract[google-structured-dict].yaml#0",
      // An array of a $ref definition that holds an array of another (promptTokenCount 219).
      "test_google_nested_models_without_native_output.yaml#0",
      // An array of inline objects of four described fields (promptTokenCount 529).
      "TestGeminiStructuredPlanning.test_gemini_research_workflow_generates_steps.yaml#0",
    ].map((id) => exchanges.find((exchange) => exchange.id.endsWith(id))!);
    for (const { path: requestPath, requestBody, responseBody } of recorded) {
      const request = readGenerateContentRequest(requestBody);
      const model = /models\/([^:]+):/.exec(requestPath)![1]!;
      const counted = await countRequestTokens(findModel(model)!.traits, {
        contents: request.contents,
        systemInstruction: request.systemInstruction,
        tools: request.tools,
        toolConfig: request.toolConfig,
      });
      const service = Number([...responseBody.matchAll(/"promptTokenCount": ?(\d+)/g)].at(-1)![1]);
      expect(counted.totalTokens).toBe(service);
    }
  });

  it("counts function parts on 2.5 as Python: the signature, 6 tokens, the call's code and its token, the printed response", async () => {
    const texts = await countTexts("gemma3", [
      'def get_weather(city: str | None = None) -> dict:\n  """Weather of a city\n\n  Args:\n    city\n  """\n',
      'print(default_api.get_weather(city="Paris"))',
      '{"get_weather_response": {"temperature": 21}}',
    ]);
    const response = await countRequestTokens(findModel("gemini-2.5-pro")!.traits, {
      contents: turns,
      tools: [{ functionDeclarations: [declaration] }],
    });
    expect(response.totalTokens).toBe(
      texts.reduce((sum, count) => sum + count, 0) + 6 + 1 + turns.length,
    );
  });

  it("counts a 2.5 call's token whether or not the service signed it, and none for a call without arguments", async () => {
    const flash = findModel("gemini-2.5-flash")!.traits;
    const count = async (parts: Part[]) =>
      (await countRequestTokens(flash, { contents: [{ role: "model", parts }] })).totalTokens;
    const signed = { functionCall: call, thoughtSignature: "c2VydmljZS1tYWRl" };
    const unsigned = { functionCall: call };
    const [code, bare] = await countTexts("gemma3", [
      'print(default_api.get_weather(city="Paris"))',
      "print(default_api.get_weather())",
    ]);
    expect(await count([signed])).toBe(code! + 1 + 1);
    expect(await count([unsigned])).toBe(code! + 1 + 1);
    // A parallel set: the service signs only its first call; each counts its token.
    expect(await count([signed, unsigned])).toBe(2 * (code! + 1) + 1);
    expect(await count([{ functionCall: { name: "get_weather", args: {} } }])).toBe(bare! + 1);
  });

  it("counts functions in the 3.x markup on gemini-2.5-flash-lite-preview-09-2025, as recorded", () => {
    const family = findModel("gemini-2.5-flash-lite")!.traits.promptTokens!;
    expect(findModel("gemini-2.5-flash-lite-preview-09-2025")!.traits.promptTokens).toEqual({
      ...family,
      functionText: "markup",
    });
    expect(family.functionText).toBe("python");
  });

  it("counts a response schema on 2.0 and not on 3.x", async () => {
    const responseSchema = { type: "OBJECT", properties: { answer: { type: "STRING" } } };
    const values = await countTexts("gemma", ["OBJECT", "answer", "STRING"]);
    const older = await countRequestTokens(findModel("gemini-2.0-flash")!.traits, {
      contents: [],
      responseSchema,
    });
    expect(older.totalTokens).toBe(values.reduce((sum, count) => sum + count, 0));
    const newer = await countRequestTokens(findModel("gemini-3-flash-preview")!.traits, {
      contents: [],
      responseSchema,
    });
    expect(newer.totalTokens).toBe(0);
  });

  it("answers 0 tokens and no details for an empty text on 2.0", async () => {
    const response = await countRequestTokens(findModel("gemini-2.0-flash")!.traits, {
      contents: [{ role: "user", parts: [{ text: "" }] }],
    });
    expect(response).toEqual({ totalTokens: 0 });
  });
});

interface RecordedExchange {
  id: string;
  path: string;
  requestBody: { contents: Content[]; tools?: Tool[]; toolConfig?: ToolConfig };
  responseBody: string;
}

interface TokenFact {
  model: string;
  kind: string;
  text?: string;
  tokens: number;
  api: string;
  origin: string;
  notes: string;
}

describe("the recorded token facts", () => {
  const facts = readFileSync(
    path.join(import.meta.dirname, "__fixtures__/token-facts.jsonl"),
    "utf8",
  )
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TokenFact)
    .filter(
      (fact) =>
        fact.api === "gemini" &&
        ["prompt", "countTokens", "output"].includes(fact.kind) &&
        typeof fact.text === "string",
    );

  /** Exact matches among the facts, predicted with the family vocabulary and the role-token rule. */
  async function evaluate(selected: TokenFact[]) {
    let exact = 0;
    const misses: string[] = [];
    for (const family of ["gemma", "gemma3"] as TokenizerFamily[]) {
      const ofFamily = selected.filter((fact) => traitsOf(fact.model).tokenizer === family);
      const counts = await countTexts(
        family,
        ofFamily.map((fact) => fact.text!),
      );
      ofFamily.forEach((fact, index) => {
        const traits = traitsOf(fact.model);
        // Prompts of several turns were recorded as their texts joined; each turn is a Content.
        const contents = Number(/multi-turn \((\d+) turns/.exec(fact.notes)?.[1] ?? 1);
        const predicted =
          counts[index]! + (fact.kind !== "output" && traits.roleTokenPerContent ? contents : 0);
        if (predicted === fact.tokens) exact++;
        else
          misses.push(`${fact.model} ${fact.kind}: recorded ${fact.tokens}, counted ${predicted}`);
      });
    }
    return { exact, total: selected.length, misses };
  }

  it("match exactly on at least 96% of the recordings (measured 341 of 352)", async () => {
    const recordings = facts.filter((fact) => fact.origin.endsWith("-recording"));
    expect(recordings.length).toBe(352);
    const { exact, total } = await evaluate(recordings);
    expect(exact / total).toBeGreaterThanOrEqual(0.96);
  });

  it("match exactly on every single-turn recorded prompt of the 2.5+ models", async () => {
    const prompts = facts.filter(
      (fact) =>
        fact.origin.endsWith("-recording") &&
        fact.kind === "prompt" &&
        traitsOf(fact.model).roleTokenPerContent &&
        !/multi-turn/.test(fact.notes),
    );
    expect(prompts.length).toBeGreaterThan(50);
    const { exact, total, misses } = await evaluate(prompts);
    expect(misses).toEqual([]);
    expect(exact).toBe(total);
  });
});

describe("countTokens on 2.0 (2.0's own vocabulary, 2.5's role tokens)", () => {
  it("counts every recorded 2.0 output text as the service counted it", async () => {
    const facts = readFileSync(
      path.join(import.meta.dirname, "__fixtures__/token-facts.jsonl"),
      "utf8",
    )
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as TokenFact)
      .filter(
        (fact) =>
          fact.api === "gemini" &&
          fact.kind === "output" &&
          fact.origin.endsWith("-recording") &&
          /^gemini-2\.0-flash(?:-lite)?$/.test(fact.model) &&
          typeof fact.text === "string",
      );
    expect(facts.length).toBeGreaterThanOrEqual(69);
    const misses: string[] = [];
    for (const fact of facts) {
      const answer = await countRequestTokens(
        traitsOf(fact.model),
        { contents: [{ role: "model", parts: [{ text: fact.text! }] }] },
        { purpose: "countTokens" },
      );
      const counted = answer.contentTokens![0]!;
      if (counted.partTokens![0] !== fact.tokens || counted.roleTokens !== 1)
        misses.push(`${fact.model}: ${fact.tokens}, counted ${JSON.stringify(counted)}`);
    }
    expect(misses).toEqual([]);
  });

  it("adds no role token for a Content sent without a role (recorded: the fox sentence, 10)", async () => {
    const answer = await countRequestTokens(
      traitsOf("gemini-2.0-flash"),
      { contents: [{ parts: [{ text: FOX }] }] },
      { purpose: "countTokens" },
    );
    expect(answer.totalTokens).toBe(10);
    expect(answer.contentTokens).toEqual([{ partTokens: [10] }]);
  });
});

describe("ids and vocabulary", () => {
  it("encodes the fox sentence to the Gemma 3 ids and decodes them back", async () => {
    const ids = await encodeText("gemma3", FOX);
    expect(ids).toEqual([818, 3823, 8864, 37423, 38167, 1024, 506, 31770, 4799, 236761]);
    expect(decodeTokenIds(await vocabularyPieces("gemma3"), ids)).toBe(FOX);
  });

  it("encodes many texts in one job, each to the ids it has alone", async () => {
    const texts = [FOX, "", "Hello", "  spaced  ", FOX.toUpperCase(), "😀 emoji"];
    const alone = await Promise.all(texts.map((text) => encodeText("gemma3", text)));
    expect(await encodeTexts("gemma3", texts)).toEqual(alone);
    expect(alone[1]).toEqual([]);
    const many = Array.from({ length: 3000 }, (_, index) => texts[index % texts.length]!);
    expect(await encodeTexts("gemma3", many)).toEqual(many.map((_, index) => alone[index % 6]));
  });

  it.each(["gemma", "gemma3"] as const)(
    "round-trips multilingual text, emoji and byte-fallback characters (%s)",
    async (family) => {
      const text =
        "Grüße aus Köln! 日本語のテキスト, 한국어, मैं ठीक हूँ. Emoji 😀👍🏽 and rare 𓀀 𒀀 \u2603\n\tindented  twice";
      const pieces = await vocabularyPieces(family);
      const ids = await encodeText(family, text);
      expect(ids.length).toBe((await countTexts(family, [text]))[0]);
      expect(decodeTokenIds(pieces, ids)).toBe(text);
    },
  );

  it.each([
    ["gemma", 256_000],
    ["gemma3", 262_145],
  ] as const)("serves the %s piece table once, with its control tokens", async (family, size) => {
    const pieces = await vocabularyPieces(family);
    expect(pieces.size).toBe(size);
    expect(await vocabularyPieces(family)).toBe(pieces);
    const control = await controlTokenIds(family);
    for (const piece of ["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"])
      expect(control.has(pieces.indexOf(piece))).toBe(true);
    expect(control.has(pieces.indexOf("▁the"))).toBe(false);
  });
});

describe("scheduling in the worker", () => {
  it("sends long texts, and short texts with a long run the BPE merges slowly, to the bulk lane", () => {
    expect(laneFor([FOX, "Hello"])).toBe("interactive");
    // 250,000 characters of ordinary words: long, but every run is short.
    expect(laneFor(["word ".repeat(50_000)])).toBe("interactive");
    expect(laneFor(["word ".repeat(60_000)])).toBe("bulk");
    // A context of 48,000 spaces, one long line, or a short text after either.
    expect(laneFor([`a${" ".repeat(48_000)}b`])).toBe("bulk");
    expect(laneFor(["abcdefghij".repeat(500)])).toBe("bulk");
    expect(laneFor(["Hello", "abcdefghij".repeat(500)])).toBe("bulk");
    // Just under the run length, spaced out: ordinary.
    expect(laneFor([`${"x".repeat(4_000)} `.repeat(10)])).toBe("interactive");
  });

  it("finishes small counts issued while a 1 MB count runs before it", async () => {
    await countTexts("gemma3", ["warm up"]);
    const big = longText(1_000_000);
    const order: string[] = [];
    const large = countTexts("gemma3", [big]).then((counts) => {
      order.push("large");
      return counts[0]!;
    });
    const smalls = [FOX, "why is the sky blue?", "Hello"].map((text, index) =>
      countTexts("gemma3", [text]).then((counts) => {
        order.push(`small ${index}`);
        return counts[0]!;
      }),
    );
    const [largeCount, ...smallCounts] = await Promise.all([large, ...smalls]);
    expect(order.at(-1)).toBe("large");
    expect(smallCounts[0]).toBe(10);
    expect(largeCount).toBeGreaterThan(200_000);
  });

  it("counts a large text in slices exactly like its pieces cut at spaces", async () => {
    const big = longText(300_000);
    const cut = big.indexOf(" ", 150_000);
    const [whole, left, right] = await countTexts("gemma3", [
      big,
      big.slice(0, cut),
      big.slice(cut),
    ]);
    expect(whole).toBe(left! + right!);
  });

  it("counts texts posted in pieces (megabytes, or thousands of texts) as if posted whole", async () => {
    const big = longText(2_500_000);
    const cut = big.indexOf(" ", 1_300_000);
    const [left, right] = await countTexts("gemma3", [big.slice(0, cut), big.slice(cut)]);
    // 2.5 MB goes as three messages; the worker joins the text back before counting it.
    expect(await countTexts("gemma3", [big])).toEqual([left! + right!]);
    const small = [FOX, "Hello", ""];
    const smallCounts = await countTexts("gemma3", small);
    const texts = Array.from({ length: 40_000 }, (_, index) => small[index % 3]!);
    const counts = await countTexts("gemma3", [...texts, big]);
    expect(counts).toEqual([...texts.map((_, index) => smallCounts[index % 3]), left! + right!]);
  });

  it("counts texts held as their code units in shared memory as the strings they stand for", async () => {
    const long = longText(1_100_000);
    const wide = `${FOX} 東京の港 \u{1F600} \ud800`.repeat(1_000);
    const [longCount, foxCount, wideCount] = await countTexts("gemma3", [long, FOX, wide]);
    expect(laneFor([sharedCodeUnits(long)])).toBe("bulk");
    // Alone, and after a long string posted in pieces (its last piece not joined to them).
    expect(await countTexts("gemma3", [sharedCodeUnits(long), FOX, sharedCodeUnits(wide)])).toEqual(
      [longCount, foxCount, wideCount],
    );
    expect(
      await countTexts("gemma3", [long, sharedCodeUnits(wide), sharedCodeUnits(FOX), long]),
    ).toEqual([longCount, wideCount, foxCount, longCount]);
  });

  it("stops a cancelled count and keeps serving others", async () => {
    const controller = new AbortController();
    const cancelled = countTexts("gemma", [longText(1_000_000)], controller.signal);
    setTimeout(() => controller.abort(), 5);
    await expect(cancelled).rejects.toThrow(/abort/i);
    expect(await countTexts("gemma", [FOX])).toEqual([10]);
    await expect(countTexts("gemma", [FOX], AbortSignal.abort())).rejects.toThrow(/abort/i);
  });
});
