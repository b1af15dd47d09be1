/**
 * Image output (responseModalities IMAGE on the image models): the local engine draws a
 * picture of the prompt as the service would attach one, a PNG in an inlineData part after the
 * answer's text. It is an abstract picture, not an illustration: a sky gradient, a horizon and
 * a few glowing discs whose colours and places are drawn from the prompt's words, so the same
 * prompt gives the same picture and different prompts visibly different ones.
 */
import { hashString } from "@/lib/gemini/hash-string";
import { encodePng } from "@/lib/engine/media/png-writer";
import { TimeSlices } from "@/lib/runtime/time-slices";
import { SeededRandom } from "./random";

export const PICTURE_MIME_TYPE = "image/png";
/**
 * Output tokens of one picture: the service counts an image it makes as 1290 (recorded as the
 * IMAGE candidatesTokensDetails of a 2.0 image answer).
 */
export const PICTURE_TOKENS = 1290;
/**
 * Pixels of the longer side (the service's are larger; this keeps a picture to a few
 * milliseconds of work). The shorter side follows `imageConfig.aspectRatio`.
 */
export const PICTURE_SIZE = 512;
/** An aspect ratio as the service spells it: "16:9", "1:1", "21:9". */
const ASPECT_RATIO = /^(\d{1,3}):(\d{1,3})$/;

/** The picture's width and height for an `imageConfig.aspectRatio` (square when unset or unreadable). */
export function pictureDimensions(aspectRatio: string | undefined): {
  width: number;
  height: number;
} {
  const found = aspectRatio ? ASPECT_RATIO.exec(aspectRatio.trim()) : null;
  const across = Number(found?.[1] ?? 1);
  const down = Number(found?.[2] ?? 1);
  if (!(across > 0 && down > 0)) return { width: PICTURE_SIZE, height: PICTURE_SIZE };
  const shorter = (ratio: number) => Math.max(1, Math.round(PICTURE_SIZE * ratio));
  return across >= down
    ? { width: PICTURE_SIZE, height: shorter(down / across) }
    : { width: shorter(across / down), height: PICTURE_SIZE };
}
/** How much of the prompt chooses the picture. */
const SEED_CHARACTERS = 4096;

type Colour = [number, number, number];

function colourFrom(random: SeededRandom, light: number): Colour {
  const hue = random.next() * 6;
  const sector = Math.floor(hue);
  const fraction = hue - sector;
  const channels: Colour[] = [
    [1, fraction, 0],
    [1 - fraction, 1, 0],
    [0, 1, fraction],
    [0, 1 - fraction, 1],
    [fraction, 0, 1],
    [1, 0, 1 - fraction],
  ];
  const [red, green, blue] = channels[sector % 6]!;
  const scale = (value: number) => Math.round(255 * (light + (1 - light) * value * 0.9));
  return [scale(red), scale(green), scale(blue)];
}

interface Disc {
  x: number;
  y: number;
  radius: number;
  colour: Colour;
}

/**
 * The PNG bytes of the prompt's picture, drawn a few rows at a time with event-loop turns in
 * between (TimeSlices) and compressed off the thread, so other requests are served meanwhile.
 */
export async function drawPicture(
  prompt: string,
  imageConfig: { aspectRatio?: string } = {},
): Promise<Uint8Array> {
  // The picture's seed is the prompt's opening: a megabyte prompt costs no more than a line.
  const opening = prompt.slice(0, SEED_CHARACTERS).trim().toLowerCase();
  const random = new SeededRandom(hashString(opening));
  const { width, height } = pictureDimensions(imageConfig.aspectRatio);
  const top = colourFrom(random, 0.05);
  const bottom = colourFrom(random, 0.4);
  const ground = colourFrom(random, 0.1).map((value) => Math.round(value * 0.45)) as Colour;
  const horizon = Math.round(height * (0.62 + random.next() * 0.2));
  const words = opening.split(/\s+/).filter(Boolean).length;
  const discs: Disc[] = Array.from({ length: 3 + (words % 5) }, () => ({
    x: random.next() * width,
    y: random.next() * horizon * 0.9,
    radius: Math.min(width, height) * (0.03 + random.next() * 0.09),
    colour: colourFrom(random, 0.5),
  }));
  const rgb = new Uint8Array(width * height * 3);
  const pixel: Colour = [0, 0, 0];
  const slices = new TimeSlices();
  for (let y = 0; y < height; y++) {
    if (slices.due()) await slices.pause();
    const sky = y / horizon;
    // Only the discs that reach this row are looked at.
    const nearby = discs.filter((disc) => Math.abs(y - disc.y) < 2 * disc.radius);
    for (let x = 0; x < width; x++) {
      for (let channel = 0; channel < 3; channel++)
        pixel[channel] =
          y >= horizon
            ? ground[channel]!
            : top[channel]! + (bottom[channel]! - top[channel]!) * sky;
      if (y < horizon)
        for (const disc of nearby) {
          const distance = Math.hypot(x - disc.x, y - disc.y) / disc.radius;
          if (distance >= 2) continue;
          // A solid core with a glow that fades out at twice the radius.
          const glow = distance <= 1 ? 1 : (2 - distance) ** 2;
          for (let channel = 0; channel < 3; channel++)
            pixel[channel] = pixel[channel]! + (disc.colour[channel]! - pixel[channel]!) * glow;
        }
      const at = (y * width + x) * 3;
      rgb[at] = pixel[0];
      rgb[at + 1] = pixel[1];
      rgb[at + 2] = pixel[2];
    }
  }
  return encodePng(width, height, rgb);
}
