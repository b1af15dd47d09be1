/** Original prose for the local model: cooking, food and the home. */
export const answersCooking = `
A simple tomato soup needs only a few ingredients: ripe tomatoes, one onion, two cloves of garlic, olive oil, salt and a little stock. Soften the onion and garlic in the oil over medium heat, add the chopped tomatoes and the stock, and let everything simmer for about twenty minutes. Blend until smooth, taste, and season with salt and pepper. A spoon of cream or a few leaves of fresh basil make it feel special.
---
To cook rice well, rinse it in cold water until the water runs almost clear. Use about one and a half cups of water for each cup of long grain rice. Bring it to a boil, cover the pot, turn the heat to low and leave it alone for fifteen minutes. Then take the pot off the heat and let it rest, still covered, for five more minutes before you fluff it with a fork.
---
Bread rises because yeast eats the sugars in the flour and releases small bubbles of gas. The gluten in the dough traps those bubbles, and the dough grows. A warm kitchen speeds this up, and a cool one slows it down. Slow rising often gives a better flavour, so many bakers leave their dough in the fridge overnight.
---
For a quick weeknight dinner, try a pan of roasted vegetables. Cut potatoes, carrots, peppers and onions into pieces of a similar size, toss them with oil, salt and a pinch of dried herbs, and roast them at two hundred degrees for about thirty five minutes. Turn them once halfway through. Serve them with a fried egg, a piece of fish or a spoon of yogurt.
---
Pancakes are easy to make at home. Mix one cup of flour, one spoon of sugar, two teaspoons of baking powder and a pinch of salt. In another bowl whisk one egg with one cup of milk and two spoons of melted butter. Stir the wet mixture into the dry one until just combined; a few lumps are fine. Cook small ladles of batter in a hot pan until bubbles appear, then flip them.
---
Fresh herbs last longer when you treat them like flowers. Trim the stems, put them in a glass of water and keep the glass in the fridge with a loose bag over the leaves. Basil is the exception: it prefers to stay on the kitchen counter, away from the cold.
---
A good chef's knife is the most useful tool in a kitchen. Keep it sharp, because a sharp knife needs less force and slips less often. Hone the edge with a steel before you cook, wash the knife by hand, dry it at once and store it in a block or on a magnetic strip.
---
To keep a kitchen tidy, clean as you go. Wash a bowl while the water boils, wipe the counter while the oven heats, and put spices back as soon as you have used them. At the end of the meal there is then only a small pile of dishes left.
---
Coffee tastes best when the beans are fresh and ground just before brewing. Use about one spoon of ground coffee for each cup of water, and water that is hot but not boiling. If the coffee tastes bitter, try a coarser grind or a shorter brewing time. If it tastes sour or weak, try a finer grind or a longer time.
---
Green tea should be brewed with water that has cooled a little after boiling, around eighty degrees. Steep it for two to three minutes. Black tea likes boiling water and three to five minutes. Herbal teas can steep longer, and many taste good cold as well.
---
A weekly meal plan saves time and money. On the weekend, choose four or five dinners, write a shopping list from them, and buy everything in one trip. Cook a large pot of something on Sunday, such as a stew or a soup, and use the leftovers for lunch during the week.
---
Lentils are a cheap and healthy source of protein. Red lentils cook in about fifteen minutes and fall apart into a thick soup, while green and brown lentils keep their shape and suit salads. There is no need to soak them, but it is a good idea to rinse them before cooking.
---
To make a basic salad dressing, mix three parts oil with one part vinegar or lemon juice. Add a pinch of salt, a little mustard to help it blend, and perhaps a spoon of honey. Shake everything in a small jar with a lid. The dressing keeps in the fridge for about a week.
---
Houseplants need light, water and a little attention. Most common plants like bright light without strong direct sun. Water them when the top of the soil feels dry, and empty the saucer so the roots do not stand in water. In winter they grow slowly and need less water.
---
To remove a coffee stain from a shirt, rinse it with cold water from the back of the fabric as soon as you can. Rub a drop of washing liquid into the stain, leave it for a few minutes, and then wash the shirt as usual. Avoid hot water until the stain is gone, because heat can set it.
---
A small garden can produce a surprising amount of food. Start with easy plants such as lettuce, radishes, beans, courgettes and herbs. Give them at least six hours of sun, water them in the morning, and add a layer of mulch to keep the soil moist. Pick often, because many plants produce more when you harvest regularly.
---
Tomatoes grow best in a warm and sunny spot. Plant them deep, because they grow roots along the buried stem, and give them a stake or a cage to climb. Water them deeply once or twice a week rather than a little every day, and remove the small side shoots if you want fewer but larger fruits.
---
Composting turns kitchen scraps and garden waste into rich soil. Mix green material such as vegetable peels and grass with brown material such as dry leaves and cardboard. Keep the pile as moist as a wrung out sponge and turn it every few weeks. In a few months the bottom of the pile will be dark and crumbly.
---
To save energy at home, start with the simple things. Turn off lights in empty rooms, wash clothes at lower temperatures, and close curtains in the evening to keep the heat in. A draft excluder under a door and a thicker curtain over a window can make a room noticeably warmer.
---
A dripping tap usually needs a new washer or cartridge. Turn off the water supply under the sink, open the tap to drain it, and take off the handle. Note the order of the parts as you remove them, take the old washer to a hardware shop, and buy an identical one.
---
Painting a room goes faster with good preparation. Move the furniture to the middle, cover the floor, fill small holes and sand them smooth, and tape the edges. Paint the ceiling first, then the walls, and finish with the trim. Two thin coats look better than one thick coat.
---
Baking cookies is a good project for a rainy afternoon. Cream soft butter with sugar until pale, beat in an egg and a little vanilla, then mix in flour, baking soda and a pinch of salt. Fold in chocolate chips or chopped nuts. Bake spoonfuls of dough on a tray for about ten minutes, until the edges are golden but the centres are still soft.
---
Leftover rice makes the best fried rice, because cold rice is drier and does not stick. Heat a pan until it is very hot, add a little oil, fry chopped vegetables and an egg, and then add the rice. Season with soy sauce and finish with spring onions. The whole dish takes about ten minutes.
---
Spices keep their flavour longer when they are stored in closed jars, away from heat and light. Whole spices last longer than ground ones. Toasting whole spices in a dry pan for a minute before you grind them brings out a deeper aroma.
---
A cozy reading corner needs only a comfortable chair, a good lamp and a small table for a cup of tea. Put it near a window if you can, add a soft blanket, and keep a short stack of books within reach.
`;
