#!/usr/bin/env node
// Precision and recall of the local engine's safety classifier (lib/engine/safety) on its
// labelled texts (lib/engine/safety/__fixtures__: the held-out set, written before the rules,
// and the development set they were tuned on), per category at each threshold that blocks
// something; BLOCK_NONE and OFF block nothing, so every text passes them. Also the rating
// speed on the whole set. --misses LEVEL prints each misrated text at that level (1 LOW,
// 2 MEDIUM, 3 HIGH).
// Usage: node bench/safety-rater.mjs [--split held-out|development|both] [--misses 1]
import path from "node:path";
import { performance } from "node:perf_hooks";
import { createJiti } from "jiti";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const option = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : fallback;
};
const jiti = createJiti(import.meta.url, { alias: { "@": root } });
process.chdir(root);
const { rateText } = await jiti.import(path.join(root, "lib/engine/safety/classifier.ts"));
const { readLabelledSet, scoreLabelledSet, misratedTexts } = await jiti.import(
  path.join(root, "lib/testing/safety-labelled-set.ts"),
);

const splits = option("--split", "both");
const sets = splits === "both" ? ["held-out", "development", "all"] : [splits];
const textsOf = (split) =>
  split === "all"
    ? [...readLabelledSet("held-out"), ...readLabelledSet("development")]
    : readLabelledSet(split);

const short = (category) => category.replace("HARM_CATEGORY_", "").toLowerCase();
const percent = (value) => `${(value * 100).toFixed(0)}%`;
for (const split of sets) {
  const texts = textsOf(split);
  const started = performance.now();
  const scores = scoreLabelledSet(texts, rateText);
  const elapsed = performance.now() - started;
  console.log(`\n${split}: ${texts.length} texts, rated in ${elapsed.toFixed(1)} ms`);
  console.log("| category | threshold | positives | precision | recall | false alarms | misses |");
  console.log("|---|---|---|---|---|---|---|");
  for (const score of scores) {
    const positives = score.truePositives + score.falseNegatives;
    console.log(
      `| ${short(score.category)} | ${score.threshold} | ${positives} | ${percent(score.precision)} | ${percent(score.recall)} | ${score.falsePositives} | ${score.falseNegatives} |`,
    );
  }
}
const missesAt = option("--misses", undefined);
if (missesAt) {
  const texts = textsOf(splits === "both" ? "all" : splits);
  for (const miss of misratedTexts(texts, rateText, Number(missesAt)))
    console.log(
      `${short(miss.category)} expected ${miss.expected} rated ${miss.rated}: ${miss.text}`,
    );
}
