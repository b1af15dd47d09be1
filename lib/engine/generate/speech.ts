/**
 * Speech output for the TTS model (responseModalities AUDIO): the prompt's text becomes
 * 16-bit little-endian mono PCM at 24 kHz (`audio/L16;codec=pcm;rate=24000`, as the service
 * answers). It is a simple tone vocoder, not a voice: each letter is a short voiced tone
 * (vowels) or a burst of shaped noise (consonants), words are separated by short pauses and
 * sentences by longer ones; the voice name shifts the pitch.
 *
 * The audio is made lazily, one chunk at a time into a typed buffer of its own, and never past
 * the output budget it is given: the candidate asks for a chunk per step (one step per turn of
 * the event loop), so a long text costs other callers one chunk's work at a time, and the text
 * beyond what the budget can say is never looked at.
 */
import { hashString } from "@/lib/gemini/hash-string";
import { SeededRandom } from "./random";

export const SPEECH_SAMPLE_RATE = 24_000;
export const SPEECH_MIME_TYPE = "audio/L16;codec=pcm;rate=24000";
/** Output tokens per second of audio (the service counts audio at 32 tokens per second). */
export const SPEECH_TOKENS_PER_SECOND = 32;
/** Samples of one output token of audio (750 at 24 kHz and 32 tokens a second). */
export const SAMPLES_PER_TOKEN = SPEECH_SAMPLE_RATE / SPEECH_TOKENS_PER_SECOND;
/**
 * Samples of one chunk: half a second, 16 tokens (a streamed delta's worth). Its 24,000 bytes
 * are a multiple of 3, so chunks' base64 texts join into the base64 of the whole.
 */
export const SPEECH_CHUNK_SAMPLES = SPEECH_SAMPLE_RATE / 2;

const LETTER_SAMPLES = Math.round(0.065 * SPEECH_SAMPLE_RATE);
const WORD_PAUSE_SAMPLES = Math.round(0.08 * SPEECH_SAMPLE_RATE);
const SENTENCE_PAUSE_SAMPLES = Math.round(0.3 * SPEECH_SAMPLE_RATE);
const CLAUSE_PAUSE_SAMPLES = Math.round(0.15 * SPEECH_SAMPLE_RATE);
const CLOSING_SILENCE_SAMPLES = Math.round(0.1 * SPEECH_SAMPLE_RATE);
const VOWELS = "aeiouy";

/** One piece of the speech: silence, or a letter's tone of this character. */
type Sound = { silence: number } | { letter: string };

/** The sounds of a text, read a character at a time (never the whole text at once). */
function* sounds(text: string): Generator<Sound> {
  for (const raw of text) {
    const character = raw.toLowerCase();
    if (/[.!?;:\n]/.test(character)) yield { silence: SENTENCE_PAUSE_SAMPLES };
    else if (character === ",") yield { silence: CLAUSE_PAUSE_SAMPLES };
    else if (/\s/.test(character)) yield { silence: WORD_PAUSE_SAMPLES };
    else if (/[\p{L}\p{N}]/u.test(character)) yield { letter: character };
  }
  yield { silence: CLOSING_SILENCE_SAMPLES };
}

/**
 * The PCM samples of a text in chunks of SPEECH_CHUNK_SAMPLES (the last may be shorter), at
 * most `maxSamples` in all; deterministic for a text and voice.
 */
export function* speechChunks(
  text: string,
  voiceName = "Kore",
  maxSamples = Number.POSITIVE_INFINITY,
): Generator<Int16Array, void> {
  const random = new SeededRandom(hashString(text + "\u0000" + voiceName));
  const basePitch = 95 + (hashString(voiceName) % 130);
  let chunk = new Int16Array(Math.min(SPEECH_CHUNK_SAMPLES, maxSamples));
  let filled = 0;
  let written = 0;
  let phase = 0;
  for (const sound of sounds(text)) {
    const count = "silence" in sound ? sound.silence : LETTER_SAMPLES;
    const samples = Math.min(count, maxSamples - written);
    if ("silence" in sound) {
      // A new chunk is zeroed: silence only moves the write position.
      for (let left = samples; left > 0;) {
        const step = Math.min(left, chunk.length - filled);
        filled += step;
        written += step;
        left -= step;
        if (filled === chunk.length) {
          yield chunk;
          chunk = new Int16Array(Math.min(SPEECH_CHUNK_SAMPLES, maxSamples - written));
          filled = 0;
        }
      }
    } else {
      const letter = letterVoice(sound.letter, basePitch, written);
      const tone = letterTone(letter, count, phase, random);
      for (let index = 0; index < samples; index++) {
        chunk[filled++] = tone();
        written += 1;
        if (filled === chunk.length) {
          yield chunk;
          chunk = new Int16Array(Math.min(SPEECH_CHUNK_SAMPLES, maxSamples - written));
          filled = 0;
        }
      }
      if (letter.voiced) phase += (2 * Math.PI * letter.pitch * count) / SPEECH_SAMPLE_RATE;
    }
    if (written >= maxSamples) break;
  }
  if (filled > 0) yield chunk.subarray(0, filled);
}

/** A letter's tone: voiced (vowels, digits) or noise, its two formants and its pitch. */
function letterVoice(letter: string, basePitch: number, at: number) {
  const code = letter.codePointAt(0) ?? 97;
  return {
    voiced: VOWELS.includes(letter) || /\p{N}/u.test(letter),
    // Two formants per letter give vowels distinct colours.
    first: 300 + ((code * 37) % 500),
    second: 900 + ((code * 91) % 1500),
    pitch: basePitch * (1 + 0.08 * Math.sin(at / 4000)),
  };
}

/**
 * sin(start + n·step) for n = 0, 1, 2, ...: each value from the two before it (one multiply
 * and one subtraction a sample, where Math.sin would cost tens of nanoseconds).
 */
function sine(step: number, start = 0): () => number {
  const twice = 2 * Math.cos(step);
  let before = Math.sin(start - step);
  let current = Math.sin(start);
  return () => {
    const value = current;
    const next = twice * current - before;
    before = current;
    current = next;
    return value;
  };
}

/** The samples of one letter's `count`-sample tone, one a call: its formants or noise, in an envelope. */
function letterTone(
  letter: ReturnType<typeof letterVoice>,
  count: number,
  phase: number,
  random: SeededRandom,
): () => number {
  const envelope = sine(Math.PI / count);
  const turn = (2 * Math.PI) / SPEECH_SAMPLE_RATE;
  const second = sine(turn * letter.second);
  if (!letter.voiced)
    return () =>
      Math.round((random.next() * 2 - 1) * 0.35 * (0.5 + 0.5 * second()) * envelope() * 12_000);
  const voice = sine(turn * letter.pitch, phase + turn * letter.pitch);
  const first = sine(turn * letter.first);
  return () => Math.round((0.5 * voice() + 0.3 * first() + 0.2 * second()) * envelope() * 12_000);
}

/** Output tokens of `samples` samples of audio (at least 1). */
export function speechTokens(samples: number): number {
  return Math.max(1, Math.round(samples / SAMPLES_PER_TOKEN));
}

/** Little-endian bytes of PCM samples, as sent in inline_data. */
export function pcmBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < samples.length; index++)
    view.setInt16(index * 2, samples[index]!, true);
  return bytes;
}
