/** Original prose for the local model: work, money, learning and everyday health. */
export const answersLiving = `
A simple budget starts with two numbers: what comes in each month and what goes out. Write down your fixed costs such as rent, bills and transport, then your variable costs such as food and leisure. Whatever is left can go to savings. Paying yourself first, by moving money to savings on payday, makes the habit automatic.
---
An emergency fund is money set aside for surprises such as a broken fridge or a few months without work. A common goal is three to six months of essential expenses, kept in an account you can reach quickly. Build it slowly; even a small amount each month adds up.
---
Compound interest means earning interest on your interest. If you save a fixed amount every month and the balance grows by a few percent each year, the growth speeds up over time. Starting early matters more than starting with a large amount.
---
To prepare for a job interview, read about the company and the role, and write down three stories from your work that show your skills. Practise answering common questions out loud. Prepare two or three questions of your own, and arrive a little early.
---
A clear email has a specific subject line, a short first sentence that says what you need, and only the details that help the reader act. End with the next step and a date if there is one. Read it once more before sending and remove anything that is not needed.
---
Meetings work better with a short agenda sent in advance, a clear goal, and someone who keeps time. Invite only the people who need to decide or contribute. At the end, write down who will do what by when, and share the notes.
---
To focus on deep work, turn off notifications and set a timer for a block of time, such as fifty minutes. Work on one task only, then take a short break away from the screen. Two or three such blocks a day can move a large project forward.
---
A to do list is more useful when each item starts with a verb and is small enough to finish in one sitting. Instead of writing plan the party, write send the invitations or book the room. At the start of each day, choose the three items that matter most.
---
Learning a language is mostly about regular practice. Fifteen minutes every day beats two hours once a week. Mix listening, speaking, reading and writing, and use the language for things you enjoy, such as songs, films or cooking recipes.
---
Reading more is easier when books are always within reach. Carry one with you, keep one by the bed, and read a few pages whenever you wait. Give yourself permission to stop a book you do not enjoy; there are many more waiting.
---
Good sleep starts with a regular rhythm. Go to bed and get up at about the same time every day, keep the bedroom dark, quiet and cool, and avoid screens in the last hour before sleep. Caffeine late in the afternoon can keep you awake longer than you expect.
---
Regular walking is one of the simplest ways to stay active. A brisk walk of thirty minutes on most days improves fitness, mood and sleep. Take the stairs, get off the bus one stop early, or walk while you talk on the phone.
---
Stretching after exercise helps the muscles relax. Move slowly into each stretch, hold it for about thirty seconds while breathing calmly, and never bounce. A stretch should feel like gentle tension, not pain.
---
Drinking enough water matters more on hot days and during exercise. A simple check is the colour of your urine: pale yellow usually means you drink enough. Fruit, vegetables, soup and tea all count toward the total as well.
---
A balanced plate is half vegetables and fruit, a quarter whole grains such as brown rice or wholemeal bread, and a quarter protein such as beans, fish, eggs or chicken. Add a little healthy fat such as olive oil or nuts. There is no need to be strict every day; the overall pattern is what counts.
---
When you feel stressed, slow breathing helps. Breathe in through the nose for four counts, hold for a moment, and breathe out slowly for six counts. Repeat for a few minutes. A short walk outside or a talk with a friend can also help put things in perspective.
---
To give useful feedback, describe what you saw, explain its effect, and suggest what could be different next time. Talk about the work, not the person, and give feedback soon after the event. Positive feedback deserves the same care as criticism.
---
Negotiating a salary starts with research: find out what similar roles pay in your area. Give a range whose lower end you would be happy with, explain the value you bring, and be ready to discuss other benefits such as training, flexible hours or extra holidays.
---
Studying for an exam works best in short sessions spread over several weeks. Test yourself instead of only rereading notes, explain ideas out loud in your own words, and mix different topics in one session. Sleep well the night before; tired memory works poorly.
---
Starting a small business begins with a problem that people will pay to solve. Talk to possible customers before you build anything, start with a simple version, and keep your costs low until you know that people want it. Keep clear records of income and expenses from the first day.
---
Public speaking becomes easier with practice. Know your first two sentences by heart, speak a little slower than feels natural, and look at friendly faces in different parts of the room. A short story or example helps the audience remember your point.
---
A good habit is easier to keep when it is small, obvious and attached to something you already do. After you pour your morning coffee, write one line in a journal. After you brush your teeth, do ten squats. Small steps repeated daily grow into large changes.
---
Teamwork depends on trust and clear roles. Each person should know what they are responsible for and whom to ask for help. Celebrate progress together, talk openly about problems early, and keep promises, even small ones.
`;
