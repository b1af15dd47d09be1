/** Original prose for the local model: short conversational answers. */
export const answersConversation = `
Hello! I am a small local model that runs inside this studio. I can answer in a few sentences, follow the settings you choose, and show you how streaming, token counts and safety ratings behave. My answers come from simple statistics over the text I was trained on and the words of our conversation, so please treat them as a demonstration rather than advice.
---
Sure, I can help with that. The short answer is that it depends on what you want to achieve. If you tell me a little more about the goal, the time you have and the tools you already use, I can suggest a first step and a few things to check along the way.
---
Thanks for the question. Here is a simple way to think about it. First, write down what you already know. Second, list what you still need to find out. Third, pick the smallest next step that would teach you something new. Repeat this loop until the answer is clear enough to act on.
---
Good morning! Today is a fine day to start something small. You could read a chapter of a book, take a short walk before lunch, or clean one drawer in the kitchen. Small tasks finished early in the day often make the rest of the day feel lighter.
---
That is a great idea. To make it work, keep the plan short and concrete. Decide what done looks like, set a date, and tell one person about it. A plan that fits on a single page is easier to follow than a long document nobody reads again.
---
I am not sure I understood the question. Could you say it in another way, or give me an example of the result you expect? A short example usually helps more than a long description.
---
Here is a summary of the main points. The first point is that the idea is simple and easy to test. The second point is that it saves time once it is set up. The third point is that it can be changed later without much effort. In short, it is worth trying on a small scale first.
---
Yes. The answer is yes in most cases, with one caveat: check the details of your own situation before you rely on a general rule. Rules of thumb are useful starting points, but the facts of a particular case always come first.
---
No, that is not quite right. A common mistake is to assume that the first explanation we hear is the complete one. In this case there are at least two other factors that matter, and the result changes when either of them changes.
---
Let me explain it step by step.

1. Start with a clear question.
2. Collect a few facts that bear on it.
3. Compare the options side by side.
4. Choose one, try it, and look at what happened.
5. Adjust and try again.

This simple loop works for cooking, for writing software and for planning a trip.
---
Of course. Here are three quick ideas:

- Keep a short list of questions you want to answer this week.
- Spend ten minutes every evening reviewing what you learned.
- Share one thing you found interesting with a friend.

Each idea takes little time, and together they build a steady habit of learning.
---
Great question! The word comes from an older form that meant to gather or to collect. Over time its meaning widened, and today we use it for any group of things that belong together, such as a collection of stamps, songs, recipes or photographs.
---
I can write a short poem about that.

The morning light falls on the hill,
the kettle hums, the house is still.
A page is turned, a cup is warm,
the quiet hour before the storm
of ordinary things to do,
and then the day begins anew.
---
Here is a short story. Once there was a lighthouse keeper who counted the ships that passed each night. One winter no ships came, so she began to count the stars instead. By spring she knew every star by name, and when the first ship returned, she waved to it as if it were an old friend.
---
Certainly. A good title is short, specific and easy to remember. Try naming the main idea in three to six words, then read it aloud. If it sounds natural and tells the reader what to expect, it is probably a good title.
---
You are welcome! If you have another question, just ask. I am happy to try again with different settings, a longer answer or a shorter one.
---
In other words, the two approaches lead to the same place by different roads. The first one is quicker to start but harder to change later. The second one takes more care at the beginning and pays off when the project grows.
---
To answer your question directly: the best option for most people is the simplest one that works. Add complexity only when you have a clear reason, such as a measurable problem that the simple option cannot solve.
---
Here is a list of pros and cons.

Pros: it is cheap, quick to set up and easy to explain to others.
Cons: it does not scale well, and it needs regular attention to stay tidy.

If the project stays small, the pros clearly win. If it grows, plan a second step.
---
That depends on the context. In a formal letter, a polite and complete sentence works best. In a chat with a colleague, a short and friendly note is usually enough. The key is to match the tone of the person you are writing to.
---
Let me check my understanding. You want a result that is fast, cheap and reliable, and you are willing to spend some time on the setup. In that case I would start with the standard approach, measure it, and only then look for improvements.
---
Sorry, I cannot look things up on the internet. I only know the text I was trained on and what you write in this conversation. For current facts such as prices, schedules or news, please check a reliable source.
---
The main idea is balance. Too little of something and the result is weak; too much and it becomes hard to manage. Start in the middle, watch what happens, and then move a little in one direction at a time.
---
Here is an example. Suppose you want to learn a new word every day. You could write each word on a card with a short sentence that uses it. At the end of the week you read the seven cards again. After a month you have thirty new words and a small stack of sentences that remind you how to use them.
`;
