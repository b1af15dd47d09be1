import { describe, expect, it } from "vitest";
import type { FunctionDeclaration, GenerateContentRequest } from "@/lib/gemini/types";
import { answerText, generateContent, plain } from "@/lib/testing/generation";
import { runSteps } from "@/lib/gemini/steps";
import { decideFunctionCallSteps } from "./index";
import { arithmeticStems } from "./relevance";

const getWeather: FunctionDeclaration = {
  name: "get_weather",
  description: "Get the current weather in a given city.",
  parameters: {
    type: "OBJECT",
    properties: { city: { type: "STRING", description: "The city" } },
    required: ["city"],
  },
};
// As the Python SDK declares `def get_current_weather(location: str) -> str` with its docstring.
const pythonCallable: FunctionDeclaration = {
  name: "get_current_weather",
  description:
    "Returns the current weather.\n\nArgs:\n  location: The city and state, e.g. San Francisco, CA",
  parameters: {
    type: "OBJECT",
    properties: { location: { type: "STRING" } },
    required: ["location"],
  },
};
const setLightLevel: FunctionDeclaration = {
  name: "set_light_level",
  description: "Dim or brighten the lights in a room.",
  parametersJsonSchema: {
    type: "object",
    properties: {
      room: { type: "string" },
      level: { type: "integer", minimum: 0, maximum: 100 },
    },
    required: ["room", "level"],
  },
};
const sendEmail: FunctionDeclaration = {
  name: "send_email",
  description: "Send an email message to a recipient.",
  parametersJsonSchema: {
    type: "object",
    properties: {
      to: { type: "string", format: "email" },
      subject: { type: "string" },
      body: { type: "string" },
      urgent: { type: "boolean" },
    },
    required: ["to", "body"],
  },
};
const scheduleMeeting: FunctionDeclaration = {
  name: "schedule_meeting",
  description: "Schedules a meeting with specified attendees at a given time and date.",
  parameters: {
    type: "OBJECT",
    properties: {
      attendees: { type: "ARRAY", items: { type: "STRING" } },
      date: { type: "STRING" },
      time: { type: "STRING" },
      topic: { type: "STRING" },
    },
    required: ["attendees", "date", "time", "topic"],
  },
};
const convertTemperature: FunctionDeclaration = {
  name: "convert_temperature",
  description: "Convert a temperature between units.",
  parametersJsonSchema: {
    type: "object",
    properties: {
      value: { type: "number" },
      to: { type: "string", enum: ["celsius", "fahrenheit", "kelvin"] },
    },
    required: ["value", "to"],
  },
};
const everything = [
  getWeather,
  setLightLevel,
  sendEmail,
  scheduleMeeting,
  convertTemperature,
] satisfies FunctionDeclaration[];

function decide(
  prompt: string,
  declarations: FunctionDeclaration[],
  extra: Partial<GenerateContentRequest> = {},
) {
  return runSteps(
    decideFunctionCallSteps(
      { contents: [], tools: [{ functionDeclarations: declarations }], ...extra },
      prompt,
      false,
      () => 0,
    ),
  );
}

function callOf(decision: ReturnType<typeof decide>) {
  expect(decision?.kind).toBe("call");
  return decision as Extract<NonNullable<typeof decision>, { kind: "call" }>;
}

describe("AUTO function calling, from the declarations alone", () => {
  it("calls what the prompt plainly asks for, with the arguments it gives", () => {
    const cases: [string, string, Record<string, unknown>][] = [
      ["What's the weather in Paris?", "get_weather", { city: "Paris" }],
      [
        "Set the light level in the kitchen to 40.",
        "set_light_level",
        { room: "kitchen", level: 40 },
      ],
      [
        "Dim the lights in the bedroom to 20 percent please",
        "set_light_level",
        { room: "bedroom", level: 20 },
      ],
      [
        "Send an email to bob@example.com saying 'running late'. It's urgent.",
        "send_email",
        { to: "bob@example.com", body: "running late", urgent: true },
      ],
      [
        "Schedule a meeting with Bob and Alice on 2024-07-29 at 15:00 about the Q3 roadmap",
        "schedule_meeting",
        { attendees: ["Bob", "Alice"], date: "2024-07-29", time: "15:00", topic: "Q3 roadmap" },
      ],
      ["Convert 100 degrees to kelvin", "convert_temperature", { value: 100, to: "kelvin" }],
    ];
    for (const [prompt, name, args] of cases) {
      const call = callOf(decide(prompt, everything));
      expect(call.declaration.name, prompt).toBe(name);
      expect(call.arguments, prompt).toEqual(args);
    }
  });

  it("reads a declaration the Python SDK builds from a callable (docstring, `location`)", () => {
    const call = callOf(decide("What is the weather like in Boston?", [pythonCallable]));
    expect(call.arguments).toEqual({ location: "Boston" });
  });

  it("is not keyed to any one function: a made-up tool is matched by its own words", () => {
    const tides: FunctionDeclaration = {
      name: "lookupTideTable",
      description: "Look up high and low tide times for a harbour.",
      parametersJsonSchema: {
        type: "object",
        properties: { harbour: { type: "string" }, days: { type: "integer", minimum: 1 } },
        required: ["harbour"],
      },
    };
    const call = callOf(decide("When is high tide at Whitby over the next 3 days?", [tides]));
    expect(call.arguments).toEqual({ harbour: "Whitby", days: 3 });
    expect(decide("Tides are fascinating, aren't they", [tides])).toBeNull();
  });

  it("reads an imperative of the name's own verb, and 'Use …', as a request", () => {
    const divide: FunctionDeclaration = {
      name: "customDivide",
      description: "Custom divide function",
      parametersJsonSchema: {
        type: "object",
        properties: { numerator: { type: "number" }, denominator: { type: "number" } },
      },
    };
    const call = callOf(decide("Divide 10 by 2 using the customDivide function", [divide]));
    expect(call.declaration.name).toBe("customDivide");
    const printer: FunctionDeclaration = {
      name: "print",
      description: "Prints a word in a colour.",
      parametersJsonSchema: {
        type: "object",
        properties: { word: { type: "string" }, color: { type: "string" } },
      },
    };
    expect(
      callOf(decide("Use the printer to print a simple word: hello in blue", [printer])).declaration
        .name,
    ).toBe("print");
    expect(decide("Division was hard at school.", [divide])).toBeNull();
    // Arithmetic asks for its operation: "/" between numbers is a division.
    expect(callOf(decide("what is the result of 100/2", [divide])).declaration.name).toBe(
      "customDivide",
    );
    expect(decide("What happened on 2024/07/29 and 2024-07-30?", [divide])).toBeNull();
    expect(arithmeticStems("The meeting moved from 2024-07-29 to 07/30/2024.")).toEqual(new Set());
    expect(arithmeticStems("What is 7 - 2, then 3 * 4?")).toEqual(
      new Set(["subtract", "minu", "multiply", "product"]),
    );
  });

  it("answers plain conversation in text", () => {
    for (const prompt of [
      "Tell me a short story about a lighthouse.",
      "Hello, how are you?",
      "I love the weather today.",
      "Thanks, that was helpful.",
    ])
      expect(decide(prompt, everything), prompt).toBeNull();
  });

  it("asks back for a required free-form argument the prompt does not give", () => {
    const decision = decide("What's the weather like?", [getWeather]);
    expect(decision).toEqual({
      kind: "ask",
      text: "I can use get_weather for that, but I need the city. Which city should I use?",
    });
  });

  it("lets the grammar choose a required closed choice (enum) the prompt does not give", () => {
    const call = callOf(decide("Convert 451 degrees please", [convertTemperature]));
    expect(call.arguments).toEqual({ value: 451 });
  });

  it("ANY always calls, even with nothing to go on; NONE never; allowedFunctionNames holds", () => {
    const any = { toolConfig: { functionCallingConfig: { mode: "ANY" as const } } };
    expect(decide("Hello there.", everything, any)?.kind).toBe("call");
    const restricted = {
      toolConfig: {
        functionCallingConfig: { mode: "ANY" as const, allowedFunctionNames: ["send_email"] },
      },
    };
    expect(
      callOf(decide("What's the weather in Paris?", everything, restricted)).declaration.name,
    ).toBe("send_email");
    const none = { toolConfig: { functionCallingConfig: { mode: "NONE" as const } } };
    expect(decide("Call get_weather for Paris.", everything, none)).toBeNull();
    const validated = {
      toolConfig: {
        functionCallingConfig: {
          mode: "VALIDATED" as const,
          allowedFunctionNames: ["set_light_level"],
        },
      },
    };
    expect(decide("What's the weather in Paris?", everything, validated)).toBeNull();
  });
});

describe("function calling through generateContent", () => {
  it("calls get_weather with the city for 'What's the weather in Paris?'", async () => {
    for (const seed of [1, 2, 3]) {
      const response = await generateContent(
        plain(
          "What's the weather in Paris?",
          { seed },
          { tools: [{ functionDeclarations: [getWeather] }] },
        ),
      );
      const part = response.candidates![0]!.content!.parts[0]!;
      expect(part.functionCall).toEqual({ name: "get_weather", args: { city: "Paris" } });
    }
  });

  it("keeps calling in ANY, and fills required arguments the prompt lacks from the schema", async () => {
    const response = await generateContent(
      plain(
        "Hello there.",
        { seed: 4 },
        {
          tools: [{ functionDeclarations: [setLightLevel] }],
          toolConfig: { functionCallingConfig: { mode: "ANY" } },
        },
      ),
    );
    const args = response.candidates![0]!.content!.parts[0]!.functionCall!.args!;
    expect(typeof args.room).toBe("string");
    expect(Number.isInteger(args.level)).toBe(true);
  });

  it("asks back in text when the required city is missing", async () => {
    const response = await generateContent(
      plain("What's the weather like?", {}, { tools: [{ functionDeclarations: [getWeather] }] }),
    );
    expect(answerText(response)).toBe(
      "I can use get_weather for that, but I need the city. Which city should I use?",
    );
  });

  it("answers the function's response in text that uses it", async () => {
    const input = plain(
      "What's the weather in Paris?",
      { seed: 5 },
      { tools: [{ functionDeclarations: [getWeather] }] },
    );
    input.request.contents.push(
      {
        role: "model",
        parts: [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }],
      },
      {
        role: "user",
        parts: [
          {
            functionResponse: {
              name: "get_weather",
              response: { temperature: 21, sky: "sunny" },
            },
          },
        ],
      },
    );
    const response = await generateContent(input);
    const parts = response.candidates![0]!.content!.parts;
    expect(parts.every((part) => part.functionCall === undefined)).toBe(true);
    expect(answerText(response)).toMatch(/^get_weather returned temperature 21, sky sunny\. \S/);
    // The Python SDK wraps a callable's return value in {"result": ...}.
    input.request.contents.at(-1)!.parts[0]!.functionResponse!.response = {
      result: { temperature: 21 },
    };
    expect(answerText(await generateContent(input))).toMatch(
      /^get_weather returned temperature 21\. /,
    );
  });
});
