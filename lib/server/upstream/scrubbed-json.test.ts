import { describe, expect, it } from "vitest";
import { createScrubber } from "../config/scrubber";
import { SLICED_JSON_CHARACTERS, scrubbedJson } from "./scrubbed-json";

const KEY = "upstream-Secret-key-0123456789xyz";
const BASE = "http://upstream.internal:8080";
const scrubber = createScrubber(KEY, BASE);

/** A files list of `count` entries whose URIs carry the upstream's origin, `\/`-escaped in one of each three. */
function filesList(count: number): string {
  const files = Array.from({ length: count }, (_, index) => {
    const uri = `${BASE}/v1beta/files/f${index}`;
    const spelled =
      index % 3 === 0 ? JSON.stringify(uri).replaceAll("/", "\\/") : JSON.stringify(uri);
    return `{"name":"files/f${index}","uri":${spelled},"displayName":"${index % 50 === 0 ? KEY : "plain"}"}`;
  });
  return `{"files":[${files.join(",")}],"nextPageToken":"t"}`;
}

describe("scrubbedJson", () => {
  it("reads a long answer as the short path would, scrubbed across piece boundaries", async () => {
    const text = filesList(60_000);
    expect(text.length).toBeGreaterThan(SLICED_JSON_CHARACTERS * 10);
    // Cut as a network would, inside the upstream's address and the key too.
    const cuts = [0, 16_389, 16_400, 300_001, 1_000_003, text.length];
    const pieces = cuts.slice(1).map((end, index) => text.slice(cuts[index], end));
    const value = await scrubbedJson<{ files: { uri: string; displayName: string }[] }>(
      pieces,
      scrubber,
    );
    expect(value).toEqual(scrubber.json(JSON.parse(text)));
    expect(value.files[3]!.uri).toBe("/v1beta/files/f3");
    expect(value.files[50]!.displayName).toBe("[redacted]");
    expect(JSON.stringify(value)).not.toMatch(/upstream\.internal|Secret-key/i);
  });

  it("lets the event loop run while it reads a long answer", async () => {
    const text = filesList(200_000);
    let turns = 0;
    const timer = setInterval(() => turns++, 0);
    try {
      await scrubbedJson([text], scrubber);
    } finally {
      clearInterval(timer);
    }
    expect(turns).toBeGreaterThan(2);
  });

  it("answers a long text that is not JSON as the upstream's malformed answer", async () => {
    const text = `${filesList(5_000).slice(0, -1)},`;
    await expect(scrubbedJson([text], scrubber)).rejects.toMatchObject({
      httpStatus: 502,
      message: expect.stringContaining("not JSON"),
    });
  });

  it("reads an empty answer as an empty object and a short one in one go", async () => {
    expect(await scrubbedJson(["  "], scrubber)).toEqual({});
    expect(await scrubbedJson([`{"uri":"${BASE}`, `/x"}`], scrubber)).toEqual({ uri: "/x" });
  });
});
