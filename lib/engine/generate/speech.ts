/**
 * Speech output for the TTS model (responseModalities AUDIO): the prompt's text becomes
 * 16-bit little-endian mono PCM at 24 kHz (`audio/L16;codec=pcm;rate=24000`, as the service
 * answers). It is a simple tone vocoder, not a voice: each letter is a short voiced tone
 * (vowels) or a burst of shaped noise (consonants), words are separated by short pauses and
 * sentences by longer ones; the voice name shifts the pitch.
 */
import { hashString } from "@/lib/gemini/hash-string";
import { SeededRandom } from "./random";

export const SPEECH_SAMPLE_RATE = 24_000;
export const SPEECH_MIME_TYPE = "audio/L16;codec=pcm;rate=24000";
/** Output tokens per second of audio (the service counts audio at 32 tokens per second). */
export const SPEECH_TOKENS_PER_SECOND = 32;

const LETTER_SECONDS = 0.065;
const WORD_PAUSE_SECONDS = 0.08;
const SENTENCE_PAUSE_SECONDS = 0.3;
const VOWELS = "aeiouy";

/** Synthesises PCM samples for a text; deterministic for a text and voice. */
export function synthesizeSpeech(text: string, voiceName = "Kore"): Int16Array {
  const random = new SeededRandom(hashString(text + "\u0000" + voiceName));
  const basePitch = 95 + (hashString(voiceName) % 130);
  const samples: number[] = [];
  const pushSilence = (seconds: number) => {
    for (let index = 0; index < Math.round(seconds * SPEECH_SAMPLE_RATE); index++) samples.push(0);
  };
  let phase = 0;
  for (const character of text.toLowerCase()) {
    if (/[.!?;:\n]/.test(character)) {
      pushSilence(SENTENCE_PAUSE_SECONDS);
      continue;
    }
    if (/\s|,/.test(character)) {
      pushSilence(character === "," ? SENTENCE_PAUSE_SECONDS / 2 : WORD_PAUSE_SECONDS);
      continue;
    }
    if (!/[\p{L}\p{N}]/u.test(character)) continue;
    const count = Math.round(LETTER_SECONDS * SPEECH_SAMPLE_RATE);
    const voiced = VOWELS.includes(character) || /\p{N}/u.test(character);
    const code = character.codePointAt(0) ?? 97;
    // Two formants per letter give vowels distinct colours.
    const first = 300 + ((code * 37) % 500);
    const second = 900 + ((code * 91) % 1500);
    const pitch = basePitch * (1 + 0.08 * Math.sin(samples.length / 4000));
    for (let index = 0; index < count; index++) {
      const envelope = Math.sin((Math.PI * index) / count);
      let value: number;
      if (voiced) {
        phase += (2 * Math.PI * pitch) / SPEECH_SAMPLE_RATE;
        const time = index / SPEECH_SAMPLE_RATE;
        value =
          0.5 * Math.sin(phase) +
          0.3 * Math.sin(2 * Math.PI * first * time) +
          0.2 * Math.sin(2 * Math.PI * second * time);
      } else {
        value =
          (random.next() * 2 - 1) *
          0.35 *
          (0.5 + 0.5 * Math.sin((2 * Math.PI * second * index) / SPEECH_SAMPLE_RATE));
      }
      samples.push(Math.round(value * envelope * 12_000));
    }
  }
  pushSilence(0.1);
  return Int16Array.from(samples);
}

/** Little-endian bytes of PCM samples, as sent in inline_data. */
export function pcmBytes(samples: Int16Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < samples.length; index++)
    view.setInt16(index * 2, samples[index]!, true);
  return bytes;
}
