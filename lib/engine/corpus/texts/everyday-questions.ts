/** Original prose for the local model: everyday questions about pets, numbers, words and gadgets. */
export const answersEveryday = `
A new puppy needs a routine more than anything else. Feed it at the same times each day, take it outside after every meal and every nap, and praise it the moment it does its business in the right place. Short training sessions of five minutes, a few times a day, work better than one long lesson.
---
Cats like to scratch because it keeps their claws healthy and marks their territory. Give your cat a sturdy scratching post that is tall enough for a full stretch, place it near where it sleeps, and reward it with a treat when it uses the post instead of the sofa.
---
Goldfish need more space than most people think. A single goldfish is happiest in a large tank with a filter, not in a small bowl. Change part of the water every week, feed it a small pinch of food once or twice a day, and never put the tank in direct sunlight.
---
Rabbits are social animals and usually do best in pairs. They need a large space to hop around, hay to chew all day, fresh greens, and a quiet place to hide. Their teeth never stop growing, so chewing on hay and wood keeps them healthy.
---
Birds that visit a garden feeder appreciate fresh water as much as seeds. Clean the feeder and the bird bath regularly, place them near a bush where small birds can hide, and keep them out of reach of cats.
---
A percentage is a way of writing a number as a part of one hundred. Twenty five percent means twenty five out of every hundred, which is the same as one quarter. To find ten percent of a number, divide it by ten; to find twenty percent, double that.
---
To calculate an average, add all the numbers together and divide by how many numbers there are. The average of four, six and eight is six, because four plus six plus eight is eighteen, and eighteen divided by three is six. The average is a useful summary, but it can hide large differences between the values.
---
A prime number is a whole number greater than one that can only be divided evenly by one and by itself. The first few primes are two, three, five, seven, eleven and thirteen. Every whole number greater than one can be written as a product of primes in exactly one way.
---
Fractions describe parts of a whole. One half and two quarters are the same amount, written in different ways. To add fractions, give them the same bottom number first: one half plus one quarter is two quarters plus one quarter, which makes three quarters.
---
Estimating is a useful skill in daily life. Round the numbers to something easy, do the sum in your head, and check whether the exact answer is close. If a shopping basket has items costing about two, three and five, the total should be about ten.
---
A paragraph should carry one main idea. Start with a sentence that states the idea, follow with two or three sentences that support it, and end with a sentence that leads to the next paragraph. Short paragraphs are easier to read on a screen.
---
The difference between affect and effect trips up many writers. Affect is usually a verb, meaning to influence something. Effect is usually a noun, meaning the result. The weather can affect your mood, and a good night's sleep has a positive effect on it.
---
A synonym is a word with a similar meaning, such as big and large. An antonym is a word with the opposite meaning, such as hot and cold. Using a varied vocabulary makes writing more interesting, but the simplest word is often the clearest.
---
Reading aloud is a good way to check your writing. You will hear sentences that are too long, words that repeat, and places where the rhythm stumbles. If you run out of breath before the end of a sentence, it is probably too long.
---
A phone battery lasts longer when you avoid extreme heat and keep the charge between about twenty and eighty percent when you can. Lower the screen brightness, close apps you do not use, and turn off features such as location when you do not need them.
---
If your home internet is slow, start by restarting the router. Place the router in a central, open spot, away from thick walls and metal objects. Check whether many devices are streaming at once, and consider a cable connection for the computer you use most.
---
To free up space on a computer, empty the downloads folder, uninstall programs you no longer use, and move old photos and videos to an external drive or a backup service. Large files are often forgotten in the downloads folder for years.
---
A good photo backup habit is simple: once a month, copy the new photos from your phone to a computer or an external drive, and keep a second copy somewhere else. Give the folders clear names with the year and the month, so you can find things later.
---
Keyboard shortcuts save a surprising amount of time. Copy, paste, undo and search work in almost every program, and learning five or six shortcuts for the tools you use every day can make your work noticeably faster.
---
When you learn a new skill, expect a slow start. The first hours feel clumsy because everything is new. Progress then speeds up for a while, and later it slows again as you refine the details. Knowing this pattern makes it easier to keep going.
---
A good night walk in the countryside shows many more stars than a city sky. Let your eyes adjust to the dark for about twenty minutes, avoid looking at a bright phone screen, and look for the band of the Milky Way on a clear, moonless night.
---
The tides are caused mainly by the pull of the moon on the oceans. The water bulges toward the moon on one side of the earth and away from it on the other side, so most coasts see two high tides and two low tides each day.
---
Snow forms when water vapour freezes directly into ice crystals high in a cloud. The crystals grow into six sided shapes, and their exact form depends on the temperature and the moisture in the air. That is why no two snowflakes look exactly alike.
---
Wind is air moving from areas of high pressure to areas of low pressure. The greater the difference in pressure, the stronger the wind. Near the coast, the land and the sea heat up at different speeds, which creates gentle breezes during the day and at night.
---
A weather forecast is a prediction based on measurements from stations, balloons and satellites, fed into computer models of the atmosphere. Forecasts for the next two or three days are usually reliable; beyond a week they become much less certain.
---
Learning to swim as an adult is entirely possible. Start in shallow water where you can stand, practise floating and breathing out under water, and take lessons with a patient teacher. Short, regular sessions build confidence faster than occasional long ones.
---
A bicycle needs a little care to stay safe. Check the tyre pressure every couple of weeks, keep the chain clean and lightly oiled, and make sure both brakes work before every ride. A bell and good lights make you easier to notice.
---
Knitting is a calm hobby that needs only two needles and a ball of yarn. Start with a simple scarf in a thick yarn, learn the knit stitch first, and do not worry about small mistakes. Many people find the repetitive movement relaxing at the end of the day.
`;
