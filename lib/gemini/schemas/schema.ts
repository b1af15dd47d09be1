/**
 * Schema: the OpenAPI subset used by responseSchema and function declaration parameters.
 * Recursive through items, properties and anyOf. `type` takes upper or lower case and comes
 * out upper case; property names inside `properties` stay exactly as sent.
 */
import { z } from "zod";
import type { Schema } from "../types";
import {
  repeated,
  wireBoolean,
  wireEnum,
  wireInteger,
  wireMap,
  wireNumber,
  wireObject,
  wireString,
  wireText,
  wireValue,
} from "./wire";

export const SCHEMA_TYPES = [
  "TYPE_UNSPECIFIED",
  "STRING",
  "NUMBER",
  "INTEGER",
  "BOOLEAN",
  "ARRAY",
  "OBJECT",
  "NULL",
] as const;
export type SchemaType = (typeof SCHEMA_TYPES)[number];

export const schemaSchema: z.ZodType<Schema, unknown> = z.lazy(() =>
  wireObject("Schema", {
    type: wireEnum("Type", SCHEMA_TYPES).optional(),
    format: wireString().optional(),
    title: wireString().optional(),
    description: wireText().optional(),
    nullable: wireBoolean().optional(),
    enum: repeated(wireText()).optional(),
    maxItems: wireInteger("TYPE_INT64").optional(),
    minItems: wireInteger("TYPE_INT64").optional(),
    properties: wireMap(schemaSchema).optional(),
    required: repeated(wireString()).optional(),
    propertyOrdering: repeated(wireString()).optional(),
    items: schemaSchema.optional(),
    minimum: wireNumber("TYPE_DOUBLE").optional(),
    maximum: wireNumber("TYPE_DOUBLE").optional(),
    anyOf: repeated(schemaSchema).optional(),
    minLength: wireInteger("TYPE_INT64").optional(),
    maxLength: wireInteger("TYPE_INT64").optional(),
    pattern: wireString().optional(),
    minProperties: wireInteger("TYPE_INT64").optional(),
    maxProperties: wireInteger("TYPE_INT64").optional(),
    example: wireValue().optional(),
    default: wireValue().optional(),
  }),
);
