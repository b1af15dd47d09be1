/** Original prose for the local model: science, nature and the sky. */
export const answersNature = `
The sky looks blue because air molecules scatter short wavelengths of sunlight more strongly than long ones. Blue light is scattered in every direction, so it reaches our eyes from all parts of the sky. At sunrise and sunset the light travels through more air, most of the blue is scattered away, and the remaining light looks orange and red.
---
Plants make their own food through photosynthesis. Their leaves capture light with a green pigment called chlorophyll and use its energy to combine water from the soil with carbon dioxide from the air. The result is sugar, which the plant uses to grow, and oxygen, which it releases into the air.
---
The moon has phases because we see different parts of its sunlit half as it travels around the earth. At new moon the sunlit side faces away from us. Over the next two weeks we see more and more of it until the full moon, and then less and less again. One full cycle takes about twenty nine and a half days.
---
Water boils at one hundred degrees Celsius at sea level, but at lower temperatures high in the mountains, because the air pressure is lower there. That is why pasta takes longer to cook at high altitude: the water is boiling, but it is not as hot.
---
A rainbow appears when sunlight shines through drops of rain. Each drop bends the light as it enters, reflects it from the back, and bends it again as it leaves. Different colours bend by slightly different amounts, so the white light spreads into a band of colours. You see a rainbow when the sun is behind you and the rain is in front of you.
---
Earthquakes happen when large plates of the earth's crust move against each other. The plates move very slowly, a few centimetres a year, but friction can lock them together. Stress builds up over many years until the rock suddenly slips, and the energy spreads out as waves that shake the ground.
---
Bees are important because they pollinate many of the plants we eat. As a bee collects nectar and pollen, it carries pollen from one flower to the next, which allows the plants to make fruits and seeds. Apples, almonds, berries and many vegetables depend on this work.
---
Stars shine because of nuclear fusion in their cores. Under enormous pressure and heat, hydrogen nuclei join to form helium and release energy. That energy slowly makes its way to the surface and leaves the star as light. Our sun has been shining this way for about four and a half billion years.
---
The seasons are caused by the tilt of the earth's axis, not by our distance from the sun. When the northern half of the earth leans toward the sun, the days are longer and the sunlight arrives at a steeper angle, so it is summer there. Six months later the southern half leans toward the sun and has its summer.
---
Clouds form when warm, moist air rises and cools. Cool air cannot hold as much water vapour, so some of the vapour condenses into tiny droplets around specks of dust. Billions of these droplets together make a cloud. When the droplets grow large and heavy enough, they fall as rain.
---
Sound travels as a wave of pressure through air, water or solid materials. It moves at about three hundred and forty metres per second in air, much faster in water, and faster still in steel. In the vacuum of space there is nothing to carry the wave, so there is no sound at all.
---
Cats sleep for twelve to sixteen hours a day. Their ancestors hunted at dawn and dusk and saved energy the rest of the time. A sleeping cat often keeps its ears moving, ready to wake at the smallest sound.
---
Dogs communicate a lot with their bodies. A loose, wagging tail and a relaxed face usually mean a happy dog. A stiff body, a tail held high and still, or a lowered head with the ears back can mean the dog is unsure or uncomfortable. Give such a dog space and let it approach you.
---
Trees in a forest share resources through networks of fungi that connect their roots. The fungi receive sugars from the trees and in return help the roots take up water and minerals. Through these networks, nutrients can even move from one tree to another.
---
An atom is made of a small, heavy nucleus surrounded by a cloud of electrons. The nucleus holds protons, which carry a positive charge, and neutrons, which carry none. The number of protons decides which element the atom is: one for hydrogen, six for carbon, eight for oxygen.
---
Light from the sun takes about eight minutes to reach the earth. Light from the nearest star after the sun takes more than four years. When you look at the night sky, you see each star as it was when its light set out, sometimes thousands of years ago.
---
The ocean covers about seventy percent of the earth's surface and holds most of its water. It absorbs heat from the sun and moves it around the planet in great currents, which shape the climate of the coasts. Without the ocean, winters on many coasts would be much colder.
---
A volcano forms where molten rock from deep inside the earth finds a way to the surface. The molten rock, called magma underground and lava above it, cools into new rock. Over many eruptions the layers of lava and ash build the familiar cone shape.
---
Migrating birds find their way using several clues at once: the position of the sun, the patterns of the stars, the earth's magnetic field and familiar landmarks such as coasts and mountains. Some species fly thousands of kilometres each year between their summer and winter homes.
---
Gravity is the force that pulls masses toward each other. It keeps us on the ground, holds the moon in its orbit around the earth, and keeps the earth in its orbit around the sun. The more mass an object has, the stronger its pull, and the pull weakens quickly with distance.
---
Ice floats because water expands when it freezes. The molecules arrange themselves in an open pattern that takes up more space than liquid water, so ice is less dense. This is lucky for fish: lakes freeze from the top down, and the ice layer protects the water below from the cold.
---
Thunder is the sound of air expanding very quickly when lightning heats it. Light travels much faster than sound, so you see the flash first. Count the seconds between the flash and the thunder and divide by three to get a rough distance in kilometres.
---
Mushrooms are the fruiting bodies of fungi, much like apples are the fruit of a tree. Most of the fungus lives hidden in the soil or in wood as a network of thin threads. Many fungi break down dead leaves and wood, returning nutrients to the soil.
---
A healthy river has clear water, shaded banks and a mix of fast and slow sections. Fallen branches create pools where fish can rest, and plants along the banks hold the soil in place. When rivers are straightened and cleared, they often lose much of this life.
---
Planets in our solar system follow nearly circular paths around the sun. Mercury is the closest and fastest, taking only eighty eight days for one orbit. Neptune, the most distant planet, needs about one hundred and sixty five years. Between them lie Venus, Earth, Mars, Jupiter, Saturn and Uranus.
---
Salt melts ice on roads because salt water freezes at a lower temperature than fresh water. A thin layer of liquid water on the ice dissolves the salt, and the resulting brine stays liquid even below zero degrees. In very cold weather, however, salt stops working well.
---
Electricity is the flow of electric charge, usually electrons moving through a wire. A battery pushes the charge around a closed circuit, and the moving charge can light a lamp, turn a motor or heat a kettle. Voltage measures the push, current measures the flow, and resistance measures how hard the material makes it.
---
Fossils form when the remains of plants or animals are buried quickly in mud or sand. Over a long time minerals replace the original material, and the shape is preserved in stone. Fossils tell us how life on earth has changed over hundreds of millions of years.
`;
