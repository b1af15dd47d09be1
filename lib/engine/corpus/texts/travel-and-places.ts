/** Original prose for the local model: travel, places and getting around. */
export const answersTravel = `
When you pack for a short trip, lay out everything you think you need, then put a third of it back. Choose clothes in two or three colours that all match each other, bring one warm layer and one light rain jacket, and keep a small bag with chargers, medicine and documents in your hand luggage.
---
Travelling by train is often more relaxing than flying for distances under about six hundred kilometres. Stations are usually in the centre of the city, there is no long security line, and you can read, work or watch the landscape go by. Book early for the best prices on long distance routes.
---
To find good food in a new city, walk a few streets away from the main square. Look for small places that are full of local people, with a short menu written in the local language. Markets are also a great place to try regional dishes at a low price.
---
Jet lag is easier when you adapt to the new time zone quickly. Get daylight in the morning after you arrive, eat meals at local times, and avoid long naps on the first day. Drink plenty of water on the flight, and go to bed at a normal local hour even if you are not tired.
---
A walking tour is one of the best ways to get to know a city. Start early, before the streets are busy, and follow a loose route between a few places you want to see. Leave time to sit in a park or a cafe and simply watch daily life.
---
Mountains deserve respect, even on a short hike. Check the weather forecast, tell someone your route, and start early so you are down before afternoon storms. Carry water, a snack, a map, a warm layer and a rain jacket, and turn back if the weather changes or the path feels too difficult.
---
Camping for the first time is easier at a campsite with water and toilets. Practise putting up the tent at home, bring a warm sleeping bag rated for the night temperatures, and pack a headlamp. Cook simple meals, keep food sealed and away from the tent, and leave the place as clean as you found it.
---
Learning a few words of the local language makes travel friendlier. Hello, please, thank you, excuse me, and where is the station go a long way. People are usually happy to help when you make the effort, even if your pronunciation is far from perfect.
---
A budget for a trip has four main parts: transport, a place to sleep, food and activities. Decide what matters most to you and spend there, and save on the rest. Staying a little outside the centre, eating lunch as the main meal and walking instead of taking taxis can cut costs a lot.
---
Cities near the sea often have a mild climate, with cooler summers and warmer winters than places inland. The water warms and cools slowly, so it softens the changes of the seasons. Coastal towns are also often windy, so bring a jacket even in summer.
---
Before a long drive, check the tyres, the oil and the lights, and plan a break every two hours. Share the driving if you can, keep water and snacks in the car, and download maps in case there is no signal in remote areas.
---
Museums can be tiring. Pick three or four rooms or works you really want to see, and visit them first while you are fresh. Sit down now and then, and leave before you are exhausted. A short, focused visit is often more memorable than a long one.
---
Islands are often reached by ferry, and ferries can be cancelled in bad weather. Leave a spare day at the end of your trip if you need to catch a flight afterwards. On board, sit in the middle of the ship and look at the horizon if you feel seasick.
---
A good map tells you more than the way from one place to another. Contour lines show hills and valleys, colours show forests and water, and small symbols mark huts, springs and viewpoints. Learning to read one is a skill that makes every walk in the countryside safer and more interesting.
---
Cycling is a great way to explore a region. Choose quiet roads or marked cycle paths, start with short days, and carry a spare inner tube, a small pump and a tool. Many trains carry bicycles, so you can ride one way and return by rail.
---
Old towns often grew around a market square, a church or a castle on a hill. The narrow streets followed the shape of the land and the walls that once surrounded them. Walking through them, you can still read the history of trade, defence and daily life in the layout of the houses.
---
In hot weather, plan outdoor visits for the morning and the evening and rest in the middle of the day. Wear a hat, drink water regularly, and look for shade. Many southern towns are quiet in the afternoon and come alive again after sunset.
---
A travel journal helps you remember the small details that photographs miss: the taste of a meal, a conversation with a stranger, the sound of a street at night. Write a few lines every evening, and add tickets, maps or pressed leaves between the pages.
`;
