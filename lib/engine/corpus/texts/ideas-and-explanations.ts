/** Original prose for the local model: explanations, advice and ideas on assorted topics. */
export const answersIdeas = `
Recycling works best when the materials are clean and sorted. Rinse food containers, flatten cardboard boxes, and check which plastics your local service accepts. When in doubt, leave it out: one wrong item can spoil a whole batch of otherwise good material.
---
Reducing waste at home starts with buying less packaging. Bring your own bags and containers, choose loose fruit and vegetables, buy staples in larger packs, and repair things before replacing them. Small habits repeated every week make a visible difference in the bin.
---
Solar panels turn sunlight directly into electricity. Each panel is made of cells that release electrons when light hits them, creating a current. Panels work best facing the sun without shade, and they still produce some power on cloudy days.
---
A heat pump moves heat instead of making it. In winter it takes warmth from the outside air or the ground and pumps it into the house; in summer it can run in reverse. Because it moves more energy than it uses, it is often much more efficient than a conventional heater.
---
Good communication starts with listening. Let the other person finish, ask a question to check you understood, and repeat the main point in your own words. People are far more willing to listen to you once they feel heard.
---
When a conversation becomes tense, slow down. Speak a little quieter, describe the problem rather than blaming the person, and suggest a short break if emotions run high. Coming back to the topic an hour later often makes it easier to find a solution together.
---
Saying no politely is a useful skill. Thank the person for asking, give a short and honest reason if you want to, and offer an alternative when you can, such as a later date or a smaller task. A clear no is kinder than a reluctant yes.
---
Making friends as an adult takes a little effort and repetition. Join a club, a class or a volunteer group that meets regularly, so you see the same people again and again. Friendships grow from many small, shared moments.
---
Children learn to read step by step. First they hear the sounds in words, then they link sounds to letters, and then they blend the letters into words. Reading together every day, even for ten minutes, is one of the best ways to help.
---
A good teacher explains an idea in more than one way. Some learners understand a picture, others an example, others a story or a hands on activity. Checking understanding with a quick question is more useful than asking whether everyone understood.
---
Memory works better with spaced repetition. Review new material after one day, then after a few days, then after a week. Each review strengthens the memory and makes it last longer than cramming everything the night before.
---
Electric cars use a battery and one or more electric motors instead of an engine. They are quiet, have few moving parts and produce no exhaust while driving. Their range depends on the size of the battery, the speed, the temperature and how much the heating or cooling runs.
---
The internet is a network of networks. When you open a web page, your request travels from your device to your router, through your provider's network, and across many connected networks to the server that holds the page, which then sends the answer back the same way.
---
Encryption scrambles data so that only someone with the right key can read it. When a web address starts with https, the connection between your browser and the site is encrypted, which protects passwords and messages from being read along the way.
---
A habit tracker can be as simple as a calendar on the wall. Put a mark on each day you complete the habit, and try not to break the chain. Seeing a row of marks grow is surprisingly motivating.
---
Decluttering is easier one small area at a time. Choose a single drawer or shelf, take everything out, keep only what you use or love, and put the rest into three boxes: donate, recycle and throw away. Stop after twenty minutes and enjoy the result.
---
Volunteering helps others and often brings unexpected benefits to the volunteer: new skills, new friends and a sense of purpose. Start with a few hours a month for a cause you care about, and choose a role that fits your strengths.
---
A good gift does not need to be expensive. Think about what the person enjoys, what they have mentioned wanting, or an experience you could share, such as a walk, a meal or a concert. A short handwritten note adds a personal touch.
---
Planning a party is easier with a simple timeline. Two weeks before, send the invitations. One week before, plan the food and music. Two days before, shop and tidy. On the day, prepare what you can in the morning so you can enjoy the guests.
---
Houseplants can improve a room's mood, even if their effect on the air is small. Choose plants that match the light you have: snake plants and pothos cope with shade, while succulents and herbs need a bright window.
---
Mistakes are part of learning. When something goes wrong, ask what happened, what you can learn from it, and what you will do differently next time. Treating a mistake as information rather than failure makes it easier to try again.
---
Curiosity is a great teacher. Ask why, follow a question to its source, and do not worry about not knowing the answer yet. Many discoveries began with someone wondering about something ordinary that everyone else took for granted.
`;
