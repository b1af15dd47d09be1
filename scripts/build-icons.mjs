// Renders public/icon.svg (which follows the colour scheme) into the raster icons browsers and
// home screens ask for: light and dark PNGs, the Apple touch icon and favicon.ico (PNG images
// in an ICO directory). Needs rsvg-convert (Debian's librsvg2-bin); run by hand when the icon
// changes and commit the output: `node scripts/build-icons.mjs`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const publicDir = path.join(import.meta.dirname, "..", "public");
const source = fs.readFileSync(path.join(publicDir, "icon.svg"), "utf8");

/** A fixed-colour copy for one scheme: rasterisers do not evaluate the SVG's media query. */
function fixedScheme(scheme) {
  const light = source.replace(/\s*@media[^{]*\{[^{}]*(\{[^{}]*\}[^{}]*)*\}/, "");
  if (scheme === "light") return light;
  return light.replace(/#18181b|#fafafa/g, (colour) =>
    colour === "#18181b" ? "#fafafa" : "#18181b",
  );
}

function render(scheme, size) {
  return execFileSync("rsvg-convert", ["--width", String(size), "--height", String(size)], {
    input: fixedScheme(scheme),
  });
}

/** An ICO file whose images are PNGs (every current browser reads them). */
function ico(images) {
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach(({ size, png }, index) => {
    const entry = 6 + 16 * index;
    header.writeUInt8(size >= 256 ? 0 : size, entry);
    header.writeUInt8(size >= 256 ? 0 : size, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

for (const scheme of ["light", "dark"]) {
  for (const size of [32, 192, 512]) {
    fs.writeFileSync(path.join(publicDir, `icon-${scheme}-${size}.png`), render(scheme, size));
  }
}
fs.writeFileSync(path.join(publicDir, "apple-touch-icon.png"), render("light", 180));
fs.writeFileSync(
  path.join(publicDir, "favicon.ico"),
  ico([16, 32, 48].map((size) => ({ size, png: render("light", size) }))),
);
