/** Original prose for the local model: history, art, music, sport and language. */
export const answersCulture = `
The printing press changed how ideas spread. Before it, books were copied by hand and were rare and expensive. With movable type, a workshop could print hundreds of copies of a text in the time a scribe needed for one. Books became cheaper, more people learned to read, and new ideas travelled faster across countries.
---
Ancient Rome grew from a small town on the river Tiber into an empire around the Mediterranean Sea. Its roads, aqueducts and laws lasted for centuries, and many European languages grew out of Latin, the language of the Romans. Words such as city, justice and calendar still carry that history.
---
The invention of writing allowed people to keep records beyond the limits of memory. Early writing was used to count grain, animals and taxes. Later it recorded laws, letters, stories and songs, and it made history itself possible, because we could read what people long ago had written.
---
A symphony is a long piece of music for an orchestra, usually in four parts called movements. The first is often lively, the second slow and song like, the third a dance, and the last fast and bright. Listening to the changes of mood between the movements is part of the pleasure.
---
Jazz grew in the early twentieth century from blues, ragtime and brass band music. Its heart is improvisation: musicians invent melodies on the spot over a shared pattern of chords. Swing, bebop and many later styles each changed the rhythm and the sound while keeping that spirit of invention.
---
To learn a musical instrument, practise a little every day rather than a lot once a week. Start slowly and play correctly before you play fast. Record yourself from time to time; hearing your own playing from the outside shows what to work on next.
---
Painting with watercolours rewards patience. Work from light to dark, because light areas are hard to recover once they are painted over. Let each layer dry before adding the next if you want sharp edges, or paint into wet paper for soft blends.
---
A good photograph usually has a clear subject and a simple background. Move closer than you think, watch the light, and try placing the subject a little off centre. Early morning and late afternoon give warm light and long shadows that make ordinary scenes look special.
---
The Olympic Games began in ancient Greece as a festival in honour of Zeus. Athletes from different cities competed in running, wrestling and chariot races. The modern games began in eighteen ninety six and now bring together athletes from almost every country in the world.
---
Football is played by two teams of eleven players who try to move the ball into the other team's goal without using their hands, except for the goalkeepers. A match lasts ninety minutes, split into two halves. Its simple rules and the need for only a ball make it the most popular sport in the world.
---
Chess is a game of strategy for two players on a board of sixty four squares. Each side has sixteen pieces, and the goal is to trap the opposing king so it cannot escape, which is called checkmate. Beginners improve quickly by learning a few opening principles: control the centre, develop the pieces and keep the king safe.
---
A novel tells a long story through characters, a setting and a plot. Readers care about a story when the characters want something and face obstacles on the way. Good novels also leave room for the reader's imagination, showing rather than explaining everything.
---
Writing a short story starts with a character who wants something. Put an obstacle in the way, let the character try and fail, and end with a change, either in the situation or in the character. Cut every sentence that does not move the story forward.
---
Libraries are much more than shelves of books. They offer free access to knowledge, quiet places to study, internet access, classes and events for children and adults. A library card is one of the best bargains there is.
---
The first people to use fire changed human history. Fire gave warmth and light, kept animals away, and made food easier to eat and digest. Cooking may even have helped our ancestors develop larger brains, because cooked food releases more energy.
---
Maps have changed over the centuries from hand drawn charts to satellite images on our phones. Old maps tell us not only where places were, but also what people believed about the world, including blank spaces and imagined lands at the edges.
---
The calendar we use today has twelve months and a leap year every four years, with a few exceptions, to keep the dates in step with the seasons. A year on earth is about three hundred and sixty five and a quarter days long, and the extra day in February makes up for the quarter.
---
Festivals mark the turning points of the year in many cultures: the harvest, the longest night, the return of spring. They often combine music, special food and gatherings of family and friends, and they connect people with their history and with each other.
---
Architecture reflects the climate and materials of a place. Thick stone walls keep houses cool in hot regions, steep roofs shed snow in the mountains, and wooden houses on stilts stay dry near rivers. Modern buildings use steel, glass and concrete, but good design still starts with the local conditions.
---
Languages change all the time. New words appear for new things, old words shift their meanings, and pronunciation drifts from one generation to the next. Reading a text from a few centuries ago shows how much a language can change while still being recognisably the same.
---
The history of flight began with kites and balloons and reached a turning point in nineteen hundred and three, when the first powered aeroplane flew for twelve seconds. Within a lifetime, aircraft crossed oceans, and people later travelled to the moon.
---
Board games bring people around a table. Some reward luck, some reward planning, and the best mix both so that everyone has a chance. Cooperative games, in which the players work together against the game, are a good choice for groups with different ages.
`;
