import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Schema } from "@/lib/gemini/types";
import { answerText, generateContent, plain } from "@/lib/testing/generation";

const ajv = new Ajv({ strict: false, validateFormats: false });

/** The service treats oneOf like anyOf (spec), so the reference validator does too. */
function oneOfAsAnyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(oneOfAsAnyOf);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key === "oneOf" ? "anyOf" : key,
      oneOfAsAnyOf(inner),
    ]),
  );
}

/** The JSON Schema meaning of an OpenAPI-subset Schema, for validating with ajv. */
function toJsonSchema(schema: Schema): Record<string, unknown> {
  const type = schema.type?.toUpperCase();
  let result: Record<string, unknown>;
  if (schema.enum) result = { type: "string", enum: schema.enum };
  else if (schema.anyOf && !type) result = { anyOf: schema.anyOf.map(toJsonSchema) };
  else {
    switch (type) {
      case "STRING":
        result = {
          type: "string",
          ...(schema.minLength !== undefined ? { minLength: Number(schema.minLength) } : {}),
          ...(schema.maxLength !== undefined ? { maxLength: Number(schema.maxLength) } : {}),
        };
        break;
      case "INTEGER":
      case "NUMBER":
        result = {
          type: type === "INTEGER" ? "integer" : "number",
          ...(schema.minimum !== undefined ? { minimum: schema.minimum } : {}),
          ...(schema.maximum !== undefined ? { maximum: schema.maximum } : {}),
        };
        break;
      case "BOOLEAN":
        result = { type: "boolean" };
        break;
      case "ARRAY":
        result = {
          type: "array",
          ...(schema.items ? { items: toJsonSchema(schema.items) } : {}),
          ...(schema.minItems !== undefined ? { minItems: Number(schema.minItems) } : {}),
          ...(schema.maxItems !== undefined ? { maxItems: Number(schema.maxItems) } : {}),
        };
        break;
      case "OBJECT":
        result = {
          type: "object",
          properties: Object.fromEntries(
            Object.entries(schema.properties ?? {}).map(([name, inner]) => [
              name,
              toJsonSchema(inner),
            ]),
          ),
          required: schema.required ?? [],
          additionalProperties: false,
        };
        break;
      default:
        result = {};
    }
  }
  return schema.nullable ? { anyOf: [result, { type: "null" }] } : result;
}

const names = fc.constantFrom(
  "name",
  "title",
  "count",
  "items",
  "score",
  "tags",
  "kind",
  "note",
  "price",
  "city",
);

const leafOpenApi: fc.Arbitrary<Schema> = fc.oneof(
  fc.record({ type: fc.constantFrom("STRING", "string") }, { requiredKeys: ["type"] }),
  fc.record({
    type: fc.constant("STRING"),
    minLength: fc.integer({ min: 0, max: 5 }),
    maxLength: fc.integer({ min: 5, max: 30 }),
  }),
  fc.record({
    type: fc.constant("STRING"),
    enum: fc.uniqueArray(fc.constantFrom("Brass", "Wood", "Steel", "Glass", "Red", "Blue"), {
      minLength: 1,
      maxLength: 4,
    }),
  }),
  fc.record(
    {
      type: fc.constantFrom("INTEGER", "integer"),
      minimum: fc.integer({ min: -50, max: 10 }),
      maximum: fc.integer({ min: 10, max: 200 }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record(
    {
      type: fc.constant("NUMBER"),
      minimum: fc.double({ min: -5, max: 0, noNaN: true }),
      maximum: fc.double({ min: 0.5, max: 5, noNaN: true }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("BOOLEAN"), nullable: fc.boolean() }, { requiredKeys: ["type"] }),
);

const openApiSchema: fc.Arbitrary<Schema> = fc.letrec<{ node: Schema }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafOpenApi,
    fc.record(
      {
        type: fc.constant("ARRAY"),
        items: tie("node"),
        minItems: fc.integer({ min: 0, max: 2 }),
        maxItems: fc.integer({ min: 2, max: 4 }),
      },
      { requiredKeys: ["type", "items"] },
    ),
    fc
      .uniqueArray(fc.tuple(names, tie("node")), {
        minLength: 1,
        maxLength: 4,
        selector: ([name]) => name,
      })
      .chain((entries) =>
        fc.record(
          {
            type: fc.constant("OBJECT"),
            properties: fc.constant(Object.fromEntries(entries)),
            required: fc.subarray(entries.map(([name]) => name)),
            propertyOrdering: fc.shuffledSubarray(entries.map(([name]) => name)),
            nullable: fc.boolean(),
          },
          { requiredKeys: ["type", "properties"] },
        ),
      ),
    fc.record({ anyOf: fc.array(leafOpenApi, { minLength: 2, maxLength: 3 }) }),
  ),
})).node;

const leafJson: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.constant({ type: "string" }),
  fc.constant({ type: ["string", "null"] }),
  fc.record(
    {
      type: fc.constant("integer"),
      minimum: fc.integer({ min: 0, max: 10 }),
      maximum: fc.integer({ min: 10, max: 99 }),
    },
    { requiredKeys: ["type"] },
  ),
  fc.record({ type: fc.constant("number"), maximum: fc.integer({ min: -3, max: 3 }) }),
  fc.constant({ type: "boolean" }),
  fc.constant({ type: "null" }),
  fc.record({
    enum: fc.uniqueArray(
      fc.oneof(fc.constantFrom("low", "high", "medium"), fc.integer({ min: 0, max: 9 })),
      { minLength: 1, maxLength: 4 },
    ),
  }),
  fc.record({
    type: fc.constant("string"),
    format: fc.constantFrom("date-time", "date", "email", "uuid"),
  }),
);

const jsonSchemaNode: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{
  node: Record<string, unknown>;
}>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leafJson,
    fc.record(
      {
        type: fc.constant("array"),
        items: tie("node"),
        minItems: fc.integer({ min: 0, max: 2 }),
        maxItems: fc.integer({ min: 2, max: 3 }),
      },
      { requiredKeys: ["type", "items"] },
    ),
    fc.record({
      type: fc.constant("array"),
      prefixItems: fc.array(tie("node"), { minLength: 1, maxLength: 2 }),
    }),
    fc
      .uniqueArray(fc.tuple(names, tie("node")), {
        minLength: 1,
        maxLength: 4,
        selector: ([name]) => name,
      })
      .chain((entries) =>
        fc.record({
          type: fc.constant("object"),
          properties: fc.constant(Object.fromEntries(entries)),
          required: fc.subarray(entries.map(([name]) => name)),
        }),
      ),
    fc.record({ oneOf: fc.array(leafJson, { minLength: 2, maxLength: 3 }) }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 2 }) }),
  ),
})).node;

/** A recursive tree through $defs and $ref: the recursion sits in optional properties. */
const recursiveJsonSchema = jsonSchemaNode.map((leaf) => ({
  $defs: {
    node: {
      type: "object",
      properties: {
        value: leaf,
        children: { type: "array", items: { $ref: "#/$defs/node" } },
        next: { $ref: "#/$defs/node" },
      },
      required: ["value"],
    },
  },
  type: "object",
  properties: { root: { $ref: "#/$defs/node" } },
  required: ["root"],
}));

async function jsonAnswer(
  config: Record<string, unknown>,
  seed: number,
  temperature: number,
): Promise<string> {
  const response = await generateContent(
    plain("Describe three tools for the kitchen as JSON.", {
      responseMimeType: "application/json",
      seed,
      temperature,
      ...config,
    }),
  );
  expect(response.candidates![0]!.finishReason).toBe("STOP");
  return answerText(response);
}

describe("constrained JSON output", () => {
  it("always satisfies random responseSchema schemas", async () => {
    await fc.assert(
      fc.asyncProperty(
        openApiSchema,
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(0, 0.7, 1.5),
        async (schema, seed, temperature) => {
          const text = await jsonAnswer({ responseSchema: schema }, seed, temperature);
          const validate = ajv.compile(toJsonSchema(schema));
          const value = JSON.parse(text);
          expect(
            validate(value),
            `${JSON.stringify(schema)}\n${text}\n${ajv.errorsText(validate.errors)}`,
          ).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("always satisfies random responseJsonSchema schemas, $ref recursion included", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(jsonSchemaNode, recursiveJsonSchema),
        fc.integer({ min: 0, max: 1000 }),
        fc.constantFrom(0, 1),
        async (schema, seed, temperature) => {
          const text = await jsonAnswer({ responseJsonSchema: schema }, seed, temperature);
          const validate = ajv.compile(oneOfAsAnyOf(schema) as object);
          const value = JSON.parse(text);
          expect(
            validate(value),
            `${JSON.stringify(schema)}\n${text}\n${ajv.errorsText(validate.errors)}`,
          ).toBe(true);
        },
      ),
      { numRuns: 120 },
    );
  });

  it("orders properties by propertyOrdering, else alphabetically for responseSchema", async () => {
    const properties = {
      zeta: { type: "STRING" },
      alpha: { type: "INTEGER" },
      mid: { type: "BOOLEAN" },
    };
    const required = ["zeta", "alpha", "mid"];
    const alphabetical = JSON.parse(
      await jsonAnswer({ responseSchema: { type: "OBJECT", properties, required } }, 1, 1),
    );
    expect(Object.keys(alphabetical)).toEqual(["alpha", "mid", "zeta"]);
    const ordered = JSON.parse(
      await jsonAnswer(
        {
          responseSchema: {
            type: "OBJECT",
            properties,
            required,
            propertyOrdering: ["mid", "zeta", "alpha"],
          },
        },
        1,
        1,
      ),
    );
    expect(Object.keys(ordered)).toEqual(["mid", "zeta", "alpha"]);
  });

  it("is not a template: seeds change the values, the same seed repeats them", async () => {
    const schema = {
      type: "OBJECT",
      properties: { name: { type: "STRING" }, count: { type: "INTEGER" } },
      required: ["name", "count"],
    };
    const outputs = new Set<string>();
    for (let seed = 0; seed < 5; seed++)
      outputs.add(await jsonAnswer({ responseSchema: schema }, seed, 1));
    expect(outputs.size).toBeGreaterThan(1);
    expect(await jsonAnswer({ responseSchema: schema }, 3, 1)).toBe(
      await jsonAnswer({ responseSchema: schema }, 3, 1),
    );
  });

  it("answers valid JSON without a schema", async () => {
    for (let seed = 0; seed < 5; seed++) {
      const text = await jsonAnswer({}, seed, 1);
      expect(typeof JSON.parse(text)).toBe("object");
    }
  });

  it("answers text/x.enum with one bare value, preferring values the prompt names", async () => {
    const values = ["Percussion", "String", "Woodwind", "Brass", "Keyboard"];
    const seen = new Set<string>();
    for (let seed = 0; seed < 8; seed++) {
      const response = await generateContent(
        plain("What kind of instrument is a trumpet? Brass, surely Brass.", {
          responseMimeType: "text/x.enum",
          responseSchema: { type: "STRING", enum: values },
          seed,
        }),
      );
      const text = answerText(response);
      expect(values).toContain(text);
      seen.add(text);
    }
    expect(seen.has("Brass")).toBe(true);
  });
});
