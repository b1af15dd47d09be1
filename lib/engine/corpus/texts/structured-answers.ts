/** Original prose for the local model: longer answers with headings, lists and bold terms. */
export const answersStructured = `
Here is a simple plan for learning to cook at home.

**1. Start with five basic dishes.** Choose meals you like, such as an omelette, a pasta with tomato sauce, a rice bowl, a soup and a salad.

**2. Learn the core skills.** Practise chopping an onion, boiling pasta, frying an egg and seasoning with salt and acid.

**3. Cook the same dish three times.** Repetition builds confidence, and you will notice what to change each time.

**4. Keep a few staples in the cupboard.** Rice, pasta, canned tomatoes, beans, oil, onions and garlic cover many quick meals.

With these steps, cooking becomes a routine rather than a project.
---
## How a computer runs a program

A program is a list of instructions stored in memory. The processor reads one instruction, carries it out, and moves on to the next.

- **Fetch:** the processor reads the next instruction from memory.
- **Decode:** it works out what the instruction asks for.
- **Execute:** it does the work, such as adding two numbers or moving data.

Modern processors repeat this cycle billions of times per second and work on several instructions at once, which is why even a small laptop feels fast.
---
There are three common ways to save for a goal:

1. **A regular transfer.** Move a fixed amount to a savings account on the day you are paid.
2. **Round ups.** Some banks round every card payment up to the next whole amount and save the difference.
3. **Saving windfalls.** Put part of any unexpected money, such as a refund or a gift, straight into savings.

The best method is the one you will actually keep doing. Many people combine the first and the third.
---
## Tips for a good night's sleep

- Keep a regular schedule, even at the weekend.
- Make the bedroom dark, quiet and slightly cool.
- Avoid heavy meals and caffeine late in the day.
- Put screens away an hour before bed and read a paper book instead.
- If you cannot sleep after twenty minutes, get up, do something calm, and return when you feel tired.

Small changes add up. Try one or two for a week and notice how you feel.
---
**Short answer:** yes, but it depends on how you use it.

**Longer answer:** the tool works well for small projects with a clear structure. It becomes harder to manage when many people change the same parts at once. In that case, agree on a few simple rules, write them down, and review them every few months.
---
## Comparing trains, buses and planes

| Option | Good for | Watch out for |
| --- | --- | --- |
| Train | city centre to city centre, working on the way | prices rise close to the date |
| Bus | low budgets, small towns | longer journeys |
| Plane | long distances, crossing the sea | time spent getting to the airport |

For trips of a few hundred kilometres, the train is often the best balance of time, comfort and cost.
---
Here is a quick checklist before you publish a web page:

- [ ] The title and the first paragraph say what the page is about.
- [ ] Every image has a short text alternative.
- [ ] Links have names that make sense on their own.
- [ ] The page works on a small phone screen.
- [ ] The text has enough contrast with the background.
- [ ] Forms can be filled in with a keyboard alone.

Checking these six points catches most common problems.
---
## Why leaves change colour in autumn

During the growing season, leaves are green because of chlorophyll, which captures sunlight. Other pigments, yellow and orange ones, are there too but hidden.

In autumn the days get shorter and cooler, and the tree stops making chlorophyll. As the green fades, the yellow and orange colours appear. Some trees also make red pigments from sugars trapped in the leaves, which is why a sunny autumn with cool nights gives the brightest colours.
---
To write a clear explanation, follow this order:

1. **Say the main point first.** One sentence that answers the question.
2. **Give the reason.** Why is it true, or why does it matter?
3. **Add an example.** A small, concrete case the reader can picture.
4. **End with what to do next.** A step the reader can take.

This pattern works for emails, reports and answers to questions alike.
---
## A beginner's guide to running

**Start slowly.** Alternate one minute of easy running with two minutes of walking for twenty minutes, three times a week.

**Build gradually.** Each week, run a little longer and walk a little less. Increase your total time by no more than about ten percent per week.

**Listen to your body.** Mild tiredness is normal; sharp pain is a signal to rest.

After two months, many beginners can run for thirty minutes without stopping.
---
Here are some ideas for a rainy weekend at home:

- Cook a new recipe from a country you would like to visit.
- Build a blanket fort and read stories with the children.
- Sort old photographs into an album.
- Learn three chords on a guitar or a keyboard.
- Plan a walk for the next sunny day.

Choose one or two, and leave time to do nothing at all.
---
## What makes a password strong

A strong password is **long**, **unique** and **hard to guess**.

- Length matters most: a phrase of four or five random words is both strong and easy to type.
- Never reuse a password on two sites; a leak on one would open the other.
- Avoid names, birthdays and common words with simple substitutions.

A password manager takes care of all three rules for you.
---
The difference between weather and climate is a matter of time. **Weather** is what the sky does today or this week: rain, sun, wind and temperature. **Climate** is the pattern of weather over many years, such as the average summer temperature or the usual amount of rain in spring. A cold day does not change the climate, just as one good meal does not change a diet.
---
## Planning a small garden

1. **Watch the light.** Note which parts of the garden get sun in the morning, at noon and in the afternoon.
2. **Start small.** One raised bed of about one by two metres is enough for the first year.
3. **Choose easy plants.** Lettuce, radishes, beans, courgettes and herbs forgive mistakes.
4. **Water deeply, less often.** Deep watering encourages deep roots.
5. **Keep notes.** Write down what you planted and when, and what worked.

By the end of the season you will know what to grow more of next year.
`;
