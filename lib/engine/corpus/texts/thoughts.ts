/** Original prose for the local model: thought-style notes for thinking models. */
export const thoughts = `
**Understanding the request**

I'm looking at what the question actually asks. The key words point to a practical answer, so I will keep it short and concrete. First I want to check what the person already knows, then choose the simplest useful explanation.
---
**Breaking down the problem**

I'm splitting the question into smaller parts. The first part is about the goal, the second about the constraints, and the third about the steps. If I answer each part in order, the final answer should be clear and easy to follow.
---
**Considering the options**

There seem to be two or three reasonable approaches. I'm weighing them by cost, effort and how easy they are to change later. The simplest option that meets the goal looks best, so I will recommend it and mention the alternative briefly.
---
**Checking the details**

I'm going over the facts I plan to use. The numbers should be consistent, the terms should be explained, and the steps should be in a sensible order. I also want to note any assumptions so the answer is honest about its limits.
---
**Planning the answer**

I'm deciding on the structure. A short first sentence with the direct answer, then a few supporting points, and finally a next step. A list will make the steps easier to scan.
---
**Refining the wording**

I'm reviewing the draft for clarity. Some sentences are too long, so I will split them. I'm replacing vague words with specific ones and removing repetition, so the final answer reads smoothly.
---
**Reflecting on the context**

I'm considering the earlier messages in the conversation. The person mentioned a few important words, and the answer should use the same terms so it connects with what they already said.
---
**Evaluating the example**

I'm thinking about a concrete example that makes the idea easy to see. A small, everyday case works better than an abstract one. Once the example is clear, the general rule follows naturally.
---
**Formulating a response**

I'm now putting the pieces together. The main point comes first, followed by a short explanation and a practical tip. I think this covers what was asked without adding unnecessary detail.
---
**Analyzing the question**

I'm carefully reading the question again to make sure I understand the intent. It seems the person wants a clear explanation rather than a long list of facts, so I will focus on the main idea and one or two supporting details.
---
**Identifying the main topic**

I'm noting the central subject of the question and the few details that matter most. Everything else is background, so I will mention it only if it changes the answer.
---
**Weighing the trade-offs**

I'm comparing the cost and the benefit of each approach. One is quicker to start, the other is easier to change later. The person seems to value a simple start, so I will lead with the quicker option.
---
**Structuring a step-by-step answer**

I'm ordering the steps so each one builds on the last. A numbered list will help, with a short sentence for each step and a final tip at the end.
---
**Clarifying the terms**

I'm making sure the key words are explained in plain language. If a term might be unfamiliar, I will add a short definition the first time it appears.
---
**Checking for mistakes**

I'm reviewing the numbers and the order of the steps once more. The facts look consistent, and the advice matches what was asked, so the answer is ready.
---
**Choosing the right level of detail**

I'm deciding how much to say. The question is fairly short, so a short answer with one example should be enough, and I can offer more detail if it is wanted.
---
**Connecting to the earlier messages**

I'm looking back at what was said before. The same topic came up earlier, so I will keep the answer consistent with it and use the same words.
---
**Drafting the first sentence**

I'm writing the opening so it answers the question directly. The rest of the answer can then explain the reason and give a practical example.
`;
