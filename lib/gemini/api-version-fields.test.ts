// A Part's mediaResolution on each version: refused on v1beta and v1 with the service's
// recorded message (naming the part), taken on v1alpha and on requests naming no version.
import { describe, expect, it } from "vitest";
import { versionFieldRefusal } from "./api-version-fields";
import type { Content } from "./types";

const withResolution: Content[] = [
  {
    role: "user",
    parts: [
      { text: "What is in this picture?" },
      {
        fileData: { fileUri: "https://example.com/kiwi.png", mimeType: "image/png" },
        mediaResolution: { level: "MEDIA_RESOLUTION_HIGH" },
      },
    ],
  },
];

describe("fields of one API version", () => {
  it("refuses a part's mediaResolution on v1beta as the service does", () => {
    const refusal = versionFieldRefusal({ contents: withResolution }, "v1beta")!;
    expect(refusal.httpStatus).toBe(400);
    expect(refusal.message).toBe(
      "Invalid JSON payload received. Unknown name \"mediaResolution\" at 'contents[0].parts[1]': Cannot find field.",
    );
    expect(refusal.details).toEqual([
      {
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: [{ field: "contents[0].parts[1]", description: refusal.message }],
      },
    ]);
    expect(versionFieldRefusal({ contents: withResolution }, "v1")).toBeDefined();
    expect(
      versionFieldRefusal(
        { contents: [], systemInstruction: { parts: withResolution[0]!.parts!.slice(1) } },
        "v1beta",
      )!.message,
    ).toContain("'system_instruction.parts[0]'");
  });

  it("takes it on v1alpha and where no version was named", () => {
    expect(versionFieldRefusal({ contents: withResolution }, "v1alpha")).toBeUndefined();
    expect(versionFieldRefusal({ contents: withResolution }, undefined)).toBeUndefined();
    const plain = [{ role: "user", parts: [{ text: "Hello" }] }];
    expect(versionFieldRefusal({ contents: plain }, "v1beta")).toBeUndefined();
  });
});
