import { describe, expect, it } from "vitest";
import type { Schema } from "@/lib/gemini/types";
import { validateGenerationConfigFields } from "@/lib/gemini/validate";
import { FLASH } from "@/lib/testing/model-traits";
import {
  addProperty,
  moveProperty,
  orderedPropertyNames,
  otherFields,
  removeProperty,
  renameProblem,
  renameProperty,
  violationsAt,
  withField,
  withRequired,
  withType,
} from "./schema-form";

const person: Schema = {
  type: "OBJECT",
  properties: {
    name: { type: "STRING" },
    age: { type: "INTEGER" },
    tags: { type: "ARRAY", items: { type: "STRING" } },
  },
  required: ["name"],
};

describe("schema form edits", () => {
  it("adds a property with the first free name, keeping an explicit order explicit", () => {
    const added = addProperty(person);
    expect(added.name).toBe("field4");
    expect(Object.keys(added.schema.properties!)).toEqual(["name", "age", "tags", "field4"]);
    expect(added.schema.propertyOrdering).toBeUndefined();
    const ordered = addProperty({ ...person, propertyOrdering: ["tags", "name", "age"] });
    expect(ordered.schema.propertyOrdering).toEqual(["tags", "name", "age", "field4"]);
    expect(addProperty({ type: "OBJECT", properties: { field2: { type: "STRING" } } }).name).toBe(
      "field3",
    );
  });

  it("moves a property: the order becomes propertyOrdering and the order of properties", () => {
    const moved = moveProperty(person, "tags", -1);
    expect(moved.propertyOrdering).toEqual(["name", "tags", "age"]);
    expect(Object.keys(moved.properties!)).toEqual(["name", "tags", "age"]);
    expect(moveProperty(person, "name", -1)).toBe(person);
    expect(orderedPropertyNames({ ...person, propertyOrdering: ["age", "gone"] })).toEqual([
      "age",
      "name",
      "tags",
    ]);
  });

  it("renames where the property stands, in required and ordering too, refusing clashes", () => {
    const renamed = renameProperty(
      { ...person, propertyOrdering: ["age", "name", "tags"] },
      "name",
      "fullName",
    );
    expect(Object.keys(renamed.properties!)).toEqual(["fullName", "age", "tags"]);
    expect(renamed.required).toEqual(["fullName"]);
    expect(renamed.propertyOrdering).toEqual(["age", "fullName", "tags"]);
    expect(renameProblem(person, "name", "age")).toBe("There is already a property named “age”.");
    expect(renameProblem(person, "name", "")).toBe("A property needs a name.");
    expect(renameProperty(person, "name", "age")).toBe(person);
  });

  it("removes a property and its name from required and ordering", () => {
    const removed = removeProperty(
      { ...person, propertyOrdering: ["name", "age", "tags"] },
      "name",
    );
    expect(removed.properties).not.toHaveProperty("name");
    expect(removed).not.toHaveProperty("required");
    expect(removed.propertyOrdering).toEqual(["age", "tags"]);
  });

  it("keeps required in the properties' order", () => {
    expect(withRequired(person, "tags", true).required).toEqual(["name", "tags"]);
    expect(withRequired(withRequired(person, "tags", true), "name", false).required).toEqual([
      "tags",
    ]);
    expect(withRequired(person, "name", false)).not.toHaveProperty("required");
  });

  it("changes type dropping what the new type cannot have, keeping fields the form does not edit", () => {
    const text: Schema = { type: "STRING", enum: ["a", "b"], description: "d", format: "enum" };
    expect(withType(text, "ARRAY")).toEqual({
      type: "ARRAY",
      description: "d",
      format: "enum",
      items: { type: "STRING" },
    });
    expect(withType(person, "STRING")).toEqual({ type: "STRING" });
    expect(withType({ type: "NUMBER" }, "OBJECT")).toEqual({ type: "OBJECT", properties: {} });
    expect(otherFields(text)).toEqual(["format"]);
    expect(withField(text, "enum", [])).not.toHaveProperty("enum");
    expect(withField(text, "description", "")).not.toHaveProperty("description");
  });
});

describe("violations at a schema node", () => {
  it("are the server's violations of that node, not of the schemas under it", () => {
    const schema: Schema = {
      type: "OBJECT",
      properties: { tags: { type: "ARRAY" }, mood: { type: "STRING", enum: ["", "sad"] } },
      required: ["missing"],
    };
    const violations = validateGenerationConfigFields(
      { responseMimeType: "application/json", responseSchema: schema },
      FLASH,
    );
    const root = "generation_config.response_schema";
    expect(violationsAt(violations, root).map((violation) => violation.field)).toEqual([
      `${root}.required[0]`,
    ]);
    expect(violationsAt(violations, `${root}.properties[tags]`)).toEqual([
      { field: `${root}.properties[tags].items`, description: "missing field." },
    ]);
    expect(violationsAt(violations, `${root}.properties[mood]`)).toEqual([
      { field: `${root}.properties[mood].enum[0]`, description: "enum values must not be empty." },
    ]);
  });
});
