import { describe, expect, it } from "vitest";
import {
  checkJsonSchemaSubset,
  checkJsonSchemaSubsetSteps,
  JSON_SCHEMA_KEYWORDS,
  resolveJsonSchemaRef,
} from "./json-schema-subset";

const FIELD = "generation_config.response_json_schema";
const check = (schema: unknown) => checkJsonSchemaSubset(schema, FIELD);

describe("checkJsonSchemaSubset: accepted documents", () => {
  it("accepts every supported keyword together", () => {
    const schema = {
      $id: "https://example.com/recipe",
      $defs: {
        ingredient: {
          $anchor: "ingredient",
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
        },
      },
      type: "object",
      title: "Recipe",
      description: "A recipe",
      properties: {
        name: { type: "string", format: "date-time" },
        servings: { type: "integer", minimum: 1, maximum: 12 },
        kind: { enum: ["soup", "salad", 3] },
        ingredients: {
          type: "array",
          items: { $ref: "#/$defs/ingredient" },
          minItems: 1,
          maxItems: 20,
        },
        pair: {
          type: "array",
          prefixItems: [{ type: "string" }, { type: "number" }],
          items: false,
        },
        either: { anyOf: [{ type: "string" }, { type: "null" }] },
        one: { oneOf: [{ type: "boolean" }, { type: ["number", "null"] }] },
        extra: { type: "object", additionalProperties: { type: "string" } },
        anchored: { $ref: "#ingredient" },
      },
      required: ["name", "servings"],
      propertyOrdering: ["name", "servings"],
      additionalProperties: false,
    };
    expect(check(schema)).toEqual([]);
  });

  it("lets other $ keys through, as generators emit $schema", () => {
    expect(
      check({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        $comment: "x",
        type: "string",
      }),
    ).toEqual([]);
  });

  it("lets a $ref carry $ keys beside it", () => {
    expect(check({ $ref: "#/$defs/a", $defs: { a: { type: "string" } } })).toEqual([]);
  });

  it("resolves # to the root, $id documents and percent-encoded pointers", () => {
    expect(check({ type: "object", properties: { child: { $ref: "#" } } })).toEqual([]);
    expect(
      check({
        $defs: { "a b": { type: "string" }, "x/y": { type: "number" } },
        anyOf: [{ $ref: "#/$defs/a%20b" }, { $ref: "#/$defs/x~1y" }],
      }),
    ).toEqual([]);
    expect(
      check({
        $defs: { other: { $id: "urn:other", $defs: { leaf: { type: "string" } } } },
        $ref: "urn:other#/$defs/leaf",
      }),
    ).toEqual([]);
  });

  it("accepts a recursive reference through an optional property", () => {
    const tree = {
      $defs: {
        node: {
          type: "object",
          properties: {
            value: { type: "string" },
            children: { type: "array", items: { $ref: "#/$defs/node" } },
          },
          required: ["value"],
        },
      },
      $ref: "#/$defs/node",
    };
    expect(check(tree)).toEqual([]);
    const linked = { type: "object", properties: { next: { $ref: "#" } } };
    expect(check(linked)).toEqual([]);
  });

  it("accepts a required recursion that has a way out through anyOf", () => {
    const schema = {
      type: "object",
      properties: { next: { anyOf: [{ $ref: "#" }, { type: "null" }] } },
      required: ["next"],
    };
    expect(check(schema)).toEqual([]);
  });
});

describe("checkJsonSchemaSubset: refused documents", () => {
  it("refuses a document that is not an object", () => {
    expect(check("string")).toEqual([
      {
        field: FIELD,
        description: 'response_json_schema must be a JSON Schema object; got "string".',
      },
    ]);
    expect(check([])).toEqual([
      {
        field: FIELD,
        description: "response_json_schema must be a JSON Schema object; got an array.",
      },
    ]);
  });

  it("accepts the rest of JSON Schema's keywords, as the service does", () => {
    for (const keyword of [
      "minLength",
      "maxLength",
      "pattern",
      "const",
      "not",
      "allOf",
      "if",
      "default",
      "nullable",
      "exclusiveMinimum",
      "uniqueItems",
      "patternProperties",
    ]) {
      expect(check({ type: "string", [keyword]: 1 }), keyword).toEqual([]);
    }
  });

  it("refuses a key that is no JSON Schema keyword, naming it, deep inside too", () => {
    const schema = {
      type: "object",
      properties: { "user name": { type: "array", items: { type: "string", colour: "red" } } },
    };
    expect(check(schema)).toEqual([
      {
        field: `${FIELD}.properties[user name].items.colour`,
        description: `"colour" is not a JSON Schema keyword; response_json_schema supports ${JSON_SCHEMA_KEYWORDS.join(", ")}.`,
      },
    ]);
  });

  it("accepts keywords beside $ref, as the service does (a title beside a recursive $ref, recorded)", () => {
    expect(
      check({
        $defs: { a: { type: "string" } },
        properties: { p: { $ref: "#/$defs/a", description: "the p", title: "P" } },
      }),
    ).toEqual([]);
  });

  it("refuses a $ref that does not resolve", () => {
    expect(check({ $ref: "#/$defs/missing" })).toEqual([
      { field: `${FIELD}.$ref`, description: '$ref "#/$defs/missing" cannot be resolved.' },
    ]);
    expect(check({ properties: { a: { $ref: "#nowhere" } } })).toEqual([
      { field: `${FIELD}.properties[a].$ref`, description: '$ref "#nowhere" cannot be resolved.' },
    ]);
    expect(check({ $ref: "https://example.com/schema.json" })).toEqual([
      {
        field: `${FIELD}.$ref`,
        description: '$ref "https://example.com/schema.json" cannot be resolved.',
      },
    ]);
    expect(
      check({ $defs: { a: 5 }, $ref: "#/$defs/a" }).map((violation) => violation.description),
    ).toContain('$ref "#/$defs/a" cannot be resolved.');
  });

  it("refuses enum values that are not strings or numbers", () => {
    expect(check({ enum: ["a", true, null] })).toEqual([
      {
        field: `${FIELD}.enum[1]`,
        description: "enum values must be strings or numbers; got true.",
      },
      {
        field: `${FIELD}.enum[2]`,
        description: "enum values must be strings or numbers; got null.",
      },
    ]);
    expect(check({ enum: [] })).toEqual([
      {
        field: `${FIELD}.enum`,
        description: "enum must be a non-empty list of strings and numbers; got an array.",
      },
    ]);
  });

  it("refuses malformed keyword values", () => {
    expect(check({ type: "text" })).toEqual([
      {
        field: `${FIELD}.type`,
        description:
          'type must be one of string, number, integer, boolean, object, array, null (or a list of them); got "text".',
      },
    ]);
    expect(check({ type: "array", minItems: -1 })).toEqual([
      {
        field: `${FIELD}.minItems`,
        description: "minItems must be a non-negative integer; got -1.",
      },
    ]);
    expect(check({ type: "array", minItems: 3, maxItems: 2 })).toEqual([
      {
        field: `${FIELD}.minItems`,
        description: "minItems (3) must not be greater than maxItems (2).",
      },
    ]);
    expect(check({ type: "number", minimum: "1" })).toEqual([
      { field: `${FIELD}.minimum`, description: 'minimum must be a number; got "1".' },
    ]);
    expect(check({ anyOf: [] })).toEqual([
      {
        field: `${FIELD}.anyOf`,
        description: "anyOf must be a non-empty list of schemas; got an array.",
      },
    ]);
    expect(check({ properties: { a: "string" } })).toEqual([
      {
        field: `${FIELD}.properties[a]`,
        description: 'must be a JSON Schema object; got "string".',
      },
    ]);
    expect(check({ required: ["a", 1] })).toEqual([
      {
        field: `${FIELD}.required`,
        description: "required must be a list of property names; got an array.",
      },
    ]);
    expect(check({ items: 3 })).toEqual([
      { field: `${FIELD}.items`, description: "must be a JSON Schema object or a boolean; got 3." },
    ]);
    expect(check({ $anchor: "1bad" })).toEqual([
      {
        field: `${FIELD}.$anchor`,
        description:
          '$anchor must be a name of letters, digits, "-", "_" and "." starting with a letter or "_"; got "1bad".',
      },
    ]);
  });

  it("refuses a cycle that runs through required properties only", () => {
    const schema = {
      $defs: {
        node: {
          type: "object",
          properties: { next: { $ref: "#/$defs/node" } },
          required: ["next"],
        },
      },
      $ref: "#/$defs/node",
    };
    expect(check(schema)).toEqual([
      {
        field: `${FIELD}.$defs[node].properties[next].$ref`,
        description:
          '$ref "#/$defs/node" closes a cycle through required properties; cycles are unrolled to a limited depth, so a recursive reference may only go through properties that are not required.',
      },
    ]);
  });

  it("refuses a forced cycle through a non-empty array", () => {
    const schema = {
      type: "object",
      properties: { list: { type: "array", minItems: 1, items: { $ref: "#" } } },
      required: ["list"],
    };
    expect(check(schema)).toHaveLength(1);
    expect(
      check({ ...schema, properties: { list: { type: "array", items: { $ref: "#" } } } }),
    ).toEqual([]);
  });
});

describe("resolveJsonSchemaRef", () => {
  const document = {
    $defs: { a: { $anchor: "alpha", type: "string" } },
    properties: { list: { prefixItems: [{ type: "number" }] } },
  };
  it("follows pointers and anchors", () => {
    expect(resolveJsonSchemaRef(document, "#")).toBe(document);
    expect(resolveJsonSchemaRef(document, "#/$defs/a")).toBe(document.$defs.a);
    expect(resolveJsonSchemaRef(document, "#alpha")).toBe(document.$defs.a);
    expect(resolveJsonSchemaRef(document, "#/properties/list/prefixItems/0")).toEqual({
      type: "number",
    });
    expect(resolveJsonSchemaRef(document, "#/properties/list/prefixItems/01")).toBeUndefined();
    expect(resolveJsonSchemaRef(document, "#/$defs/b")).toBeUndefined();
  });
});

describe("checkJsonSchemaSubsetSteps", () => {
  it("checks a document of 100,000 subschemas a subschema at a time, so it can run in slices", () => {
    const wide = {
      anyOf: Array.from({ length: 100_000 }, (_, index) => ({
        type: "object",
        properties: { [`k${index}`]: { type: "string" } },
      })),
    };
    const steps = checkJsonSchemaSubsetSteps(wide, FIELD);
    let count = 0;
    let next = steps.next();
    for (; !next.done; next = steps.next()) count += 1;
    expect(next.value).toEqual([]);
    // Every subschema is indexed, checked and evaluated for cycles in a step of its own.
    expect(count).toBeGreaterThan(3 * 200_000);
  });

  it("never looks at more than a few branches of a long anyOf or properties in one step", () => {
    // The lists are read through proxies that count the members looked at since the last step.
    let readSinceStep = 0;
    const counted = <T extends object>(target: T): T =>
      new Proxy(target, {
        get(holder, key, receiver) {
          if (typeof key === "string" && /^(\d+|k\d+)$/.test(key)) readSinceStep += 1;
          return Reflect.get(holder, key, receiver);
        },
      });
    const branches = counted(
      Array.from({ length: 20_000 }, (_, index) => ({
        type: "object",
        properties: { [`k${index}`]: { type: "string" } },
      })),
    );
    const properties = counted(
      Object.fromEntries(
        Array.from({ length: 20_000 }, (_, index) => [`k${index}`, { type: "string" }]),
      ),
    );
    for (const schema of [{ anyOf: branches }, { type: "object", properties }]) {
      const steps = checkJsonSchemaSubsetSteps(schema, FIELD);
      let most = 0;
      let next = steps.next();
      for (; !next.done; next = steps.next()) {
        most = Math.max(most, readSinceStep);
        readSinceStep = 0;
      }
      expect(next.value).toEqual([]);
      // Indexed and checked a member per step (building every member's field at once held
      // the thread for the whole list).
      expect(most).toBeLessThanOrEqual(2);
    }
  });

  it("settles a chain of thousands of $refs through required properties in linear steps", () => {
    /** d0 requires d1, which requires d2, ... up to a string (or back to d0: a forced cycle). */
    const chain = (length: number, closed: boolean) => {
      const $defs: Record<string, unknown> = {};
      for (let index = 0; index < length; index++) {
        const next = index + 1 < length ? index + 1 : closed ? 0 : undefined;
        $defs[`d${index}`] =
          next === undefined
            ? { type: "string" }
            : {
                type: "object",
                properties: { next: { $ref: `#/$defs/d${next}` } },
                required: ["next"],
              };
      }
      return { $ref: "#/$defs/d0", $defs };
    };
    const run = (schema: unknown) => {
      const steps = checkJsonSchemaSubsetSteps(schema, FIELD);
      let count = 0;
      let next = steps.next();
      for (; !next.done; next = steps.next()) count += 1;
      return { count, violations: next.value };
    };
    // 6,001 subschemas: a pass over the document per link of the chain took 36 million steps.
    const open = run(chain(3_000, false));
    expect(open.violations).toEqual([]);
    expect(open.count).toBeLessThan(20 * 6_001);
    const closed = run(chain(3_000, true));
    expect(closed.violations).toHaveLength(1);
    expect(closed.violations[0]!.description).toMatch(/closes a cycle through required properties/);
    expect(closed.count).toBeLessThan(20 * 6_001);
  });
});
