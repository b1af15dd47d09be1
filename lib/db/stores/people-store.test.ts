import { afterEach, describe, expect, it } from "vitest";
import { testDatabaseKinds, type TestDatabase } from "@/lib/testing/databases";

describe.each(testDatabaseKinds())("PeopleStore and ApiKeyStore ($dialect)", (kind) => {
  let data: TestDatabase;
  afterEach(async () => {
    await data.cleanup();
  });

  it("keeps one person per email and always one enabled admin", async () => {
    data = await kind.open();
    const { people } = data.stores;
    const admin = (await people.create({
      email: "ada@example.com",
      name: "Ada",
      role: "admin",
      passwordHash: "hash",
    }))!;
    expect(
      await people.create({
        email: "ada@example.com",
        name: "Other",
        role: "member",
        passwordHash: null,
      }),
    ).toBeNull();
    expect(await people.update(admin.id, { disabled: true })).toBe("last-admin");
    expect(await people.update(admin.id, { role: "member" })).toBe("last-admin");
    const bob = (await people.create({
      email: "bob@example.com",
      name: "Bob",
      role: "member",
      passwordHash: null,
    }))!;
    await people.update(bob.id, { role: "admin" });
    const disabled = await people.update(admin.id, { disabled: true });
    expect(disabled).toMatchObject({ role: "admin", disabledAt: expect.any(Number) });
    expect(await people.update("nobody", { name: "x" })).toBeNull();
    expect((await people.list()).map((person) => person.email)).toEqual([
      "ada@example.com",
      "bob@example.com",
    ]);
  });

  it("lets a link be used once, before it expires, and a newer link withdraw the older", async () => {
    data = await kind.open();
    const { people } = data.stores;
    const link = {
      kind: "invitation" as const,
      email: "carol@example.com",
      role: "member" as const,
      personId: null,
      createdBy: "admin",
      createdAt: 1000,
      expiresAt: 5000,
    };
    await people.createLink({ ...link, tokenHash: "first" });
    expect(await people.findUsableLink("first", 4999)).toMatchObject({
      email: "carol@example.com",
    });
    expect(await people.findUsableLink("first", 5000)).toBeNull();
    const make = (now: number) =>
      people.useLink("first", now, (found, executor) =>
        people.createInTransaction(
          executor,
          { email: found.email, name: "Carol", role: found.role, passwordHash: "h" },
          now,
        ),
      );
    expect(await make(6000)).toBeNull();
    // Used twice at once: one person, one refusal.
    await people.createLink({ ...link, tokenHash: "second", expiresAt: 10_000 });
    const twice = await Promise.all(
      [0, 1].map(() =>
        people.useLink("second", 2000, (found, executor) =>
          people.createInTransaction(
            executor,
            { email: found.email, name: "Carol", role: found.role, passwordHash: "h" },
            2000,
          ),
        ),
      ),
    );
    expect(twice.filter((person) => person !== null)).toHaveLength(1);
    await people.createLink({
      ...link,
      email: "dan@example.com",
      tokenHash: "third",
      expiresAt: 10_000,
    });
    await people.revokeLinksFor("invitation", "dan@example.com", 3000);
    expect(await people.findUsableLink("third", 3001)).toBeNull();
  });

  it("finds a live key by its hash until it is revoked, and bumps the auth version with each change", async () => {
    data = await kind.open();
    const { apiKeys, authState } = data.stores;
    const before = await authState.version();
    const key = (await apiKeys.create({
      ownerId: "person:p1",
      personId: "p1",
      name: "laptop",
      prefix: "gsk_abcdef",
      secretHash: "hash-1",
      limits: { models: ["gemini-2.5-flash"] },
    }))!;
    expect(await authState.version()).toBe(before + 1);
    expect(await apiKeys.findLive("hash-1")).toMatchObject({ id: key.id, ownerId: "person:p1" });
    expect(await apiKeys.get("person:p2", key.id)).toBeNull();
    expect(await apiKeys.update("person:p2", key.id, { name: "taken" })).toBeNull();
    expect(await apiKeys.revoke("person:p2", key.id)).toBe(false);
    await apiKeys.update("person:p1", key.id, { limits: { tokensPerDay: 10 } });
    expect((await apiKeys.findLive("hash-1"))!.limits).toEqual({ tokensPerDay: 10 });
    expect(await apiKeys.revoke("person:p1", key.id)).toBe(true);
    expect(await apiKeys.findLive("hash-1")).toBeNull();
    expect(await authState.version()).toBe(before + 3);
    expect((await apiKeys.list("person:p1"))[0]).toMatchObject({ revokedAt: expect.any(Number) });
    // The hashing secret is made once and stays.
    expect(await authState.secret()).toBe(await authState.secret());
  });

  it("counts spend from every instance at once, and reads it with the rate token", async () => {
    data = await kind.open();
    const other = await data.reopen();
    const periods = { keyId: "k1", day: "2025-06-01", month: "2025-06" };
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? data.stores : other.stores).limits.addSpend([
          { keyId: "k1", period: "2025-06-01", tokens: 10, nanodollars: 5 },
          { keyId: "k1", period: "2025-06", tokens: 10, nanodollars: 5 },
        ]),
      ),
    );
    const read = await data.stores.limits.takeWithSpend(
      "apikey:k1",
      { requestsPerMinute: 60, burst: 2 },
      0,
      periods,
    );
    expect(read.rate).toEqual({ taken: true, waitSeconds: 0 });
    expect(read.spend).toEqual({
      dayTokens: 200,
      dayNanodollars: 100,
      monthTokens: 200,
      monthNanodollars: 100,
    });
    const spends = await data.stores.limits.readSpend(["k1", "k2"], "2025-06-02", "2025-06");
    expect(spends.get("k1")).toEqual({
      dayTokens: 0,
      dayNanodollars: 0,
      monthTokens: 200,
      monthNanodollars: 100,
    });
    expect(spends.has("k2")).toBe(false);
  });
});
