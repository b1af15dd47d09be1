import { expect, test, type Locator } from "@playwright/test";
import { ChatPage } from "./pages/chat-page";
import { expectNoSeriousViolations } from "./pages/answer-metadata";

/**
 * Real editors: a form for the response schema and one for function
 * declarations, each editing the same value as the raw JSON beside it (both ways), checked
 * with the server's rules as it changes; what is sent is what they show.
 */

const SETTINGS = "form[aria-label='Chat settings']";

async function jsonOf(box: Locator): Promise<unknown> {
  return JSON.parse(await box.inputValue());
}

test("the response schema form and its JSON are one value, checked as typed, and the answer follows it", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(2000);
  await chat.selectSetting("Response format", "json");
  await chat.selectSetting("Schema kind", "openapi");
  const form = chat.settings.getByRole("group", { name: "Response schema", exact: true });
  const json = chat.setting("Response schema (JSON)");
  const add = form.getByRole("button", { name: "Add property to Response schema" });

  /** Adds a property and names it; the new name field has the focus. */
  const addProperty = async (name: string) => {
    await add.click();
    const field = page.locator(":focus");
    await expect(field).toHaveValue(/^field\d+$/);
    await field.fill(name);
    await field.press("Enter");
    return form.getByRole("group", { name: `Property ${name}`, exact: true });
  };
  const city = await addProperty("city");
  await city.getByLabel("Required (city)").check();
  const population = await addProperty("population");
  await population.getByLabel("Type (Property population)").selectOption("INTEGER");
  await population.getByLabel("Required (population)").check();
  const rivers = await addProperty("rivers");
  await rivers.getByLabel("Type (Property rivers)").selectOption("ARRAY");
  await expect(
    rivers.getByRole("group", { name: "Items of Property rivers" }).getByLabel(/^Type/),
  ).toHaveValue("STRING");
  const mood = await addProperty("mood");
  await mood.getByLabel(/^Allowed values/).fill("calm\nstormy");
  await mood.getByRole("button", { name: "Move mood up" }).click();
  // The focus stays with the row that moved.
  await expect(mood.getByRole("button", { name: "Move mood up" })).toBeFocused();

  const expected = {
    type: "OBJECT",
    properties: {
      city: { type: "STRING" },
      population: { type: "INTEGER" },
      mood: { type: "STRING", enum: ["calm", "stormy"] },
      rivers: { type: "ARRAY", items: { type: "STRING" } },
    },
    required: ["city", "population"],
    propertyOrdering: ["city", "population", "mood", "rivers"],
  };
  // Form → JSON.
  expect(await jsonOf(json)).toEqual(expected);

  // JSON → form: a property typed in the JSON appears in the form, and goes from there.
  await json.fill(
    JSON.stringify({
      ...expected,
      properties: { ...expected.properties, founded: { type: "INTEGER", minimum: 800 } },
    }),
  );
  const founded = form.getByRole("group", { name: "Property founded", exact: true });
  await expect(founded.getByLabel("Type (Property founded)")).toHaveValue("INTEGER");
  // What the form has no control for stays, and it says so.
  await expect(founded).toContainText("Also set in the JSON, kept as it is: minimum.");
  await founded.getByRole("button", { name: "Remove property founded" }).click();
  await expect(founded).toHaveCount(0);
  expect(await jsonOf(json)).toEqual(expected);

  // Checked with the server's rules as it changes: at the field, and sending waits.
  const values = mood.getByLabel(/^Allowed values/);
  await values.fill("calm\ncalm");
  await expect(values).toHaveAttribute("aria-invalid", "true");
  await expect(mood.locator("[data-field-error]")).toHaveText("enum values must be distinct.");
  await expect(chat.settings.getByRole("status")).toHaveText(
    "1 setting needs fixing before sending.",
  );
  await chat.send("Not yet");
  await expect(chat.notice).toBeVisible();
  await expect(chat.userMessages).toHaveCount(0);
  await values.fill("calm\nstormy");
  await expect(values).not.toHaveAttribute("aria-invalid", "true");
  // A name already taken is refused where it is typed; the schema keeps the old one.
  const moodName = mood.getByLabel("Name (Property mood)");
  await moodName.fill("city");
  await expect(moodName).toHaveAttribute("aria-invalid", "true");
  await expect(mood).toContainText("There is already a property named “city”.");
  await moodName.press("Enter");
  expect(await jsonOf(json)).toEqual(expected);
  await moodName.fill("mood");
  await expectNoSeriousViolations(page, SETTINGS);

  // What is sent is what the form shows, and the answer follows it, in its order.
  const sent = chat.nextTurnRequest();
  await chat.send(`Describe a river town ${Date.now()}`);
  const request = (await sent) as { generationConfig: { responseSchema: unknown } };
  expect(request.generationConfig.responseSchema).toEqual(expected);
  await chat.waitForAnswerDone();
  const answer = JSON.parse(
    await chat.lastAnswer().locator("[data-json-answer]").innerText(),
  ) as Record<string, unknown>;
  // Required fields always; the optional ones, when given, in the order set.
  expect(Object.keys(answer)).toEqual(expected.propertyOrdering.filter((key) => key in answer));
  expect(Object.keys(answer).slice(0, 2)).toEqual(["city", "population"]);
  expect(Number.isInteger(answer.population)).toBe(true);
  if ("mood" in answer) expect(["calm", "stormy"]).toContain(answer.mood);
});

test("the function declarations form and its JSON are one value, with the calling mode and allowed names", async ({
  page,
}) => {
  const chat = new ChatPage(page);
  await chat.open();
  await chat.limitAnswers(200);
  const declarations = chat.settings.getByRole("group", {
    name: "Function declarations",
    exact: true,
  });
  const json = chat.setting("Function declarations (JSON array)");
  await declarations.getByRole("button", { name: "Add function" }).click();
  const name = chat.setting("Name of function 1");
  await expect(name).toBeFocused();
  await expect(name).toHaveValue("new_function");

  // The service's name rule, at the name, as it is typed.
  await name.fill("1st_weather");
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(declarations.locator("[data-field-error]").first()).toContainText(
    "Invalid function name. Must start with a letter or an underscore.",
  );
  await chat.send("Not yet");
  await expect(chat.notice).toBeVisible();
  await expect(chat.userMessages).toHaveCount(0);
  await name.fill("get_weather");
  await expect(name).not.toHaveAttribute("aria-invalid", "true");
  await chat.setting("Description of function 1").fill("Current weather of a city");

  // Parameters through the same schema form.
  const parameters = declarations.getByRole("group", { name: "Parameters of get_weather" });
  await parameters
    .getByRole("button", { name: "Add property to Parameters of get_weather" })
    .click();
  const field = page.locator(":focus");
  await field.fill("city");
  await field.press("Tab");
  await parameters.getByLabel("Required (city)").check();
  await parameters.getByLabel("Description (Property city)").fill("The city's name");

  const weather = {
    name: "get_weather",
    description: "Current weather of a city",
    parameters: {
      type: "OBJECT",
      properties: { city: { type: "STRING", description: "The city's name" } },
      required: ["city"],
    },
  };
  expect(await jsonOf(json)).toEqual([weather]);

  // JSON → form: a second declaration typed in the JSON is a second form.
  const time = { name: "get_time", description: "The time in a time zone" };
  await json.fill(JSON.stringify([weather, time]));
  await expect(chat.setting("Name of function 2")).toHaveValue("get_time");
  await expect(
    declarations.getByRole("group", { name: "Function get_time" }).getByLabel(/^Takes parameters/),
  ).not.toBeChecked();

  // Calling mode and allowed names: offered for ANY and VALIDATED, from the declared names.
  const allowed = chat.settings.getByRole("group", { name: /^Allowed function names/ });
  await expect(allowed).toHaveCount(0);
  await chat.selectSetting("Function calling mode", "ANY");
  await expect(allowed.getByRole("checkbox")).toHaveCount(2);
  await allowed.getByLabel("get_weather", { exact: true }).check();
  await expectNoSeriousViolations(page, SETTINGS);

  const sent = chat.nextTurnRequest();
  await chat.send("What is the weather in Oslo?");
  const request = (await sent) as { tools: unknown; toolConfig: unknown };
  expect(request.tools).toEqual([{ functionDeclarations: [weather, time] }]);
  expect(request.toolConfig).toEqual({
    functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["get_weather"] },
  });
  await chat.waitForAnswerDone();
  await expect(
    chat.lastAnswer().getByRole("region", { name: "Function call get_weather" }),
  ).toContainText('"city"');

  // Removing a function in the form takes it out of the JSON and of the allowed names.
  await chat.openSettings();
  await declarations
    .getByRole("group", { name: "Function get_weather" })
    .getByRole("button", { name: "Remove function get_weather" })
    .click();
  expect(await jsonOf(json)).toEqual([time]);
  await expect(allowed.getByRole("checkbox")).toHaveCount(1);
  await expect(allowed.getByLabel("get_time", { exact: true })).not.toBeChecked();
});
