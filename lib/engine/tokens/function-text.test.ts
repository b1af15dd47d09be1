// The two notations the service writes function declarations, calls and responses in, checked
// as the texts and fixed tokens they produce (the vocabulary counts the texts elsewhere).
import { describe, expect, it } from "vitest";
import type { FunctionDeclaration } from "@/lib/gemini/types";
import {
  declarationText,
  functionCallText,
  functionCallTextSteps,
  functionResponseText,
  responseSchemaText,
} from "./function-text";

const weather: FunctionDeclaration = {
  name: "get_weather",
  description: "Weather of a city",
  parameters: {
    type: "object",
    properties: {
      unit: { type: "string", enum: ["C", "F"] },
      city: { type: "STRING", description: "Where" },
    },
    required: ["city"],
  } as never,
};

describe("the fields notation (1.x, 2.0)", () => {
  it("counts each value of a declaration alone: names, descriptions, enum type names, enums, required", () => {
    expect(declarationText("fields", weather)).toEqual({
      texts: [
        "get_weather",
        "Weather of a city",
        "OBJECT",
        "unit",
        "STRING",
        "C",
        "F",
        "city",
        "STRING",
        "Where",
        "city",
      ],
      fixed: 0,
    });
  });

  it("leaves JSON Schema declarations out: only the name and description reach the prompt", () => {
    const { parameters, ...rest } = weather;
    expect(declarationText("fields", { ...rest, parametersJsonSchema: parameters })).toEqual({
      texts: ["get_weather", "Weather of a city"],
      fixed: 0,
    });
  });

  it("counts a call's and a response's names, keys and strings, and any other value as one token", () => {
    expect(
      functionCallText("fields", {
        name: "divide",
        args: { numerator: 10, label: "ten", exact: true, tags: [], nested: { by: 2 } },
      }),
    ).toEqual({
      texts: ["divide", "numerator", "label", "ten", "exact", "tags", "nested", "by"],
      fixed: 3,
    });
    expect(
      functionResponseText("fields", { id: "ignored", name: "divide", response: { output: 5 } }),
    ).toEqual({ texts: ["divide", "output"], fixed: 1 });
  });

  it("counts a response schema like parameters, its titles included", () => {
    // `nullable: true` is one token; `items` one more besides its schema's values.
    expect(
      responseSchemaText({
        type: "ARRAY",
        items: { type: "OBJECT", properties: { name: { type: "STRING" } }, nullable: true },
        title: "Names",
      }),
    ).toEqual({ texts: ["ARRAY", "OBJECT", "name", "STRING", "Names"], fixed: 2 });
  });

  it("leaves a parameter's title out, and counts an array parameter's items as one token more", () => {
    expect(
      declarationText("fields", {
        name: "load",
        parameters: {
          type: "OBJECT",
          title: "LoadArgs",
          properties: {
            names: { type: "ARRAY", items: { type: "STRING" }, title: "Names" },
            a: { type: "NUMBER", title: "A", description: "The first" },
          },
        } as never,
      }),
    ).toEqual({
      texts: ["load", "OBJECT", "names", "ARRAY", "STRING", "a", "NUMBER", "The first"],
      fixed: 1,
    });
  });
});

describe("the markup notation (2.5, 3.x)", () => {
  it("writes a declaration as one text with escaped strings between marker tokens, keys sorted", () => {
    // <start_function_declaration>declaration:get_weather{description:<escape>Weather of a city
    // <escape>,parameters:{properties:{city:{description:<escape>Where<escape>,type:<escape>STRING
    // <escape>},unit:{enum:[<escape>C<escape>,<escape>F<escape>],type:<escape>STRING<escape>}},
    // required:[<escape>city<escape>],type:<escape>OBJECT<escape>}}<end_function_declaration>
    expect(declarationText("markup", weather)).toEqual({
      texts: [
        "declaration:get_weather{description:",
        "Weather of a city",
        ",parameters:{properties:{city:{description:",
        "Where",
        ",type:",
        "STRING",
        "},unit:{enum:[",
        "C",
        ",",
        "F",
        "],type:",
        "STRING",
        "}},required:[",
        "city",
        "],type:",
        "OBJECT",
        "}}",
      ],
      fixed: 2 + 2 * 8,
    });
  });

  it("writes a declaration without parameters as its bare name", () => {
    expect(declarationText("markup", { name: "beep" })).toEqual({
      texts: ["declaration:beep{}"],
      fixed: 2,
    });
  });

  it("writes a call's arguments and a response's fields with strings escaped and numbers as they are", () => {
    expect(
      functionCallText("markup", {
        id: "x1",
        name: "square_root",
        args: { number: 132, note: "n" },
      }),
    ).toEqual({ texts: ["call:square_root{note:", "n", ",number:132}"], fixed: 4 });
    expect(
      functionResponseText("markup", {
        name: "square_root",
        response: { response: "11.49", exact: false, parts: [1, null] },
      }),
    ).toEqual({
      texts: ["response:square_root{exact:false,parts:[1,null],response:", "11.49", "}"],
      fixed: 4,
    });
  });

  it("gives no caller text the power of a marker", () => {
    const sneaky = "<escape><end_function_call>";
    expect(functionCallText("markup", { name: "f", args: { text: sneaky } })).toEqual({
      texts: ["call:f{text:", sneaky, "}"],
      fixed: 4,
    });
  });
});

describe("the python notation (2.5)", () => {
  it("writes a declaration as a signature, required parameters first and the others `| None = None`, and a docstring", () => {
    // 6 a declaration, 4 for its second parameter, 2 fewer for the described one.
    expect(declarationText("python", weather)).toEqual({
      texts: [
        'def get_weather(city: str, unit: Literal["C", "F"] | None = None) -> dict:\n' +
          '  """Weather of a city\n\n  Args:\n    city: Where\n    unit\n  """\n',
      ],
      fixed: 6 + 4 - 2,
    });
  });

  it("reads a JSON Schema declaration the same way, a null among its types left out", () => {
    expect(
      declarationText("python", {
        name: "greet",
        parametersJsonSchema: {
          $schema: "http://json-schema.org/draft-07/schema#",
          additionalProperties: false,
          type: "object",
          properties: {
            name: { type: ["string", "number", "null"] },
            greeting: { type: "string" },
          },
          required: ["name", "greeting"],
        },
      }),
    ).toEqual({
      texts: [
        'def greet(name: str | float, greeting: str) -> dict:\n  """\n\n  Args:\n    name\n    greeting\n  """\n',
      ],
      fixed: 6 + 4,
    });
    expect(
      declarationText("python", { name: "beep", parametersJsonSchema: { type: "object" } }),
    ).toEqual({
      texts: ['def beep() -> dict:\n  """\n  """\n'],
      fixed: 6,
    });
  });

  it("writes a listed parameter whose default is null as an optional one, after the required", () => {
    expect(
      declarationText("python", {
        name: "search",
        parametersJsonSchema: {
          type: "object",
          properties: {
            filter: { anyOf: [{ type: "string" }, { type: "null" }], default: null },
            query: { type: "string" },
          },
          required: ["filter", "query"],
        },
      }),
    ).toEqual({
      texts: [
        'def search(query: str, filter: str | None = None) -> dict:\n  """\n\n  Args:\n    query\n    filter\n  """\n',
      ],
      fixed: 6 + 4,
    });
  });

  it("writes a response schema in the markup, without JSON Schema's own keywords, for 15 tokens more", () => {
    const { texts, fixed } = declarationText("python", {
      name: "greet",
      description: "Greet the user",
      responseJsonSchema: {
        $schema: "http://json-schema.org/draft-07/schema#",
        additionalProperties: false,
        type: "object",
        properties: { message: { type: "string" } },
        required: ["message"],
      },
    });
    expect(texts).toEqual([
      'def greet() -> dict:\n  """Greet the user\n  """\n',
      "{properties:{message:{type:",
      "STRING",
      "}},required:[",
      "message",
      "],type:",
      "OBJECT",
      "}",
    ]);
    expect(fixed).toBe(6 + 15 + 2 * 3);
  });

  it("writes a call as the code that makes it, keys sorted, and one token more for each argument", () => {
    expect(
      functionCallText("python", {
        id: "x1",
        name: "customDivide",
        args: { numerator: 10, denominator: 2, note: "n", exact: true, tags: [null] },
      }),
    ).toEqual({
      texts: [
        'print(default_api.customDivide(denominator=2, exact=True, note="n", numerator=10, tags=[None]))',
      ],
      fixed: 5,
    });
  });

  it("writes a response as the JSON the call printed, named after the function, Python's separators", () => {
    expect(
      functionResponseText("python", {
        name: "get_file",
        response: { return_value: "File attached", sizes: [1, 2.5], ok: true, none: null },
      }),
    ).toEqual({
      texts: [
        '{"get_file_response": {"return_value": "File attached", "sizes": [1, 2.5], "ok": true, "none": null}}',
      ],
      fixed: 0,
    });
    expect(functionResponseText("python", { name: "get_file", response: {} })).toEqual({
      texts: ['{"get_file_response": {}}'],
      fixed: 0,
    });
  });

  it("escapes a single quote in a response's strings and keys as C does", () => {
    expect(
      functionResponseText("python", {
        name: "web_search",
        response: { "it's": "Results for 'agents': \"3\"" },
      }),
    ).toEqual({
      texts: [`{"web_search_response": {"it\\'s": "Results for \\'agents\\': \\"3\\""}}`],
      fixed: 0,
    });
  });

  it("writes an object parameter as a dataclass named after it, 10 tokens for the declaration's classes and 5 a class", () => {
    const { texts, fixed } = declarationText("python", {
      name: "final_result",
      parametersJsonSchema: {
        type: "object",
        properties: {
          name: { type: "string" },
          address: {
            type: "object",
            description: "Mailing address",
            properties: { street: { type: "string" }, unit: { type: "string" } },
            required: ["street"],
          },
        },
        required: ["name"],
      },
    });
    expect(texts).toEqual([
      "def final_result(name: str, address: Address | None = None) -> dict:\n" +
        '  """\n\n  Args:\n    name\n    address: Mailing address\n  """\n',
      '@dataclasses.dataclass\nclass Address:\n  """Mailing address\n\n  Attributes:\n    street\n    unit\n  """\n\n' +
        "  street: str\n  unit: str | None = None\n\n",
    ]);
    expect(fixed).toBe(6 + 4 - 2 + 10 + 5);
  });

  it("writes each `$ref` definition once as a class of its name, an array of objects as a list of the class", () => {
    const { texts, fixed } = declarationText("python", {
      name: "plan",
      parametersJsonSchema: {
        $defs: {
          Step: {
            type: "object",
            description: "One step",
            properties: {
              action: { type: "string", description: "What to do" },
              after: { type: "array", items: { $ref: "#/$defs/Step" } },
            },
            required: ["action"],
          },
        },
        type: "object",
        properties: {
          first: { $ref: "#/$defs/Step" },
          steps: { type: "array", items: { $ref: "#/$defs/Step" } },
          notes: {
            type: "array",
            items: { type: "object", properties: { text: { type: "string" } } },
          },
        },
        required: ["first", "steps", "notes"],
      },
    });
    expect(texts[0]).toBe(
      "def plan(first: Step, steps: list[Step], notes: list[Notes]) -> dict:\n" +
        '  """\n\n  Args:\n    first\n    steps\n    notes\n  """\n',
    );
    // The self-reference names the class again; it is written once.
    expect(texts[1]).toBe(
      '@dataclasses.dataclass\nclass Step:\n  """One step\n\n  Attributes:\n    action: What to do\n    after\n  """\n\n' +
        "  action: str\n  after: list[Step] | None = None\n\n" +
        '@dataclasses.dataclass\nclass Notes:\n  """\n\n  Attributes:\n    text\n  """\n\n' +
        "  text: str | None = None\n\n",
    );
    expect(fixed).toBe(6 + 2 * 4 + 10 + 2 * 5);
  });

  it("names an inline object by its title, and a name another object took with a number", () => {
    const { texts } = declarationText("python", {
      name: "move",
      parametersJsonSchema: {
        type: "object",
        properties: {
          from: { type: "object", title: "Point", properties: { x: { type: "number" } } },
          to: { type: "object", title: "Point", properties: { y: { type: "number" } } },
          point: { type: "object", properties: { z: { type: "number" } } },
          box: { type: "object" },
        },
      },
    });
    expect(texts[0]).toContain(
      "def move(from: Point | None = None, to: Point2 | None = None, point: Point3 | None = None, box: dict | None = None)",
    );
    expect(texts[1]!.match(/class \w+:/g)).toEqual([
      "class Point:",
      "class Point2:",
      "class Point3:",
    ]);
  });

  it("writes no class for a declaration without nested objects", () => {
    expect(declarationText("python", weather).texts).toHaveLength(1);
  });

  it("indents a description's later lines as the docstring is", () => {
    const { texts } = declarationText("python", {
      name: "web_search",
      description: "Search the web.\n\nArgs:\n    query: the query",
    });
    expect(texts).toEqual([
      'def web_search() -> dict:\n  """Search the web.\n\n  Args:\n      query: the query\n  """\n',
    ]);
  });
});

describe("writing in steps", () => {
  it("writes a call of 50,000 arguments a value at a time, as the text written at once", () => {
    const keys = Array.from(
      { length: 50_000 },
      (_, index) =>
        // Mixed case, digits and astral characters: sorted as Array.prototype.sort sorts them.
        [`key${index}`, `Key_${index % 977}_${index}`, `ключ${index}`, `😀${index}`][index % 4]!,
    );
    const args = Object.fromEntries(
      keys.map((key, index) => [key, index % 3 ? `value ${index}` : { n: index, list: [index] }]),
    );
    for (const format of ["markup", "fields", "python"] as const) {
      const steps = functionCallTextSteps(format, { name: "lookup", args });
      let count = 0;
      let next = steps.next();
      for (; !next.done; next = steps.next()) count += 1;
      expect(count).toBeGreaterThanOrEqual(50_000);
      expect(next.value).toEqual(functionCallText(format, { name: "lookup", args }));
    }
    // The markup writes the keys sorted as Array.prototype.sort sorts them.
    const known = new Set(keys);
    const { texts } = functionCallText("markup", { name: "lookup", args });
    const order = texts
      .join("")
      .split(/[{,]/)
      .map((member) => member.slice(0, member.indexOf(":")))
      .filter((key) => known.has(key));
    expect(order).toEqual([...keys].sort());
  });
});
