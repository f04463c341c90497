// The table's sounds: a draw, a discard, your turn, a knock, a gin, and a tick each second of the last ten
// of your own clock. Each is made here with the Web Audio API — a few short tones and bursts of filtered
// noise, no audio file — and played without waiting: no move ever waits for a sound. Without Web Audio, or
// while the browser holds the page's audio suspended (its autoplay policy wants a click or a key first:
// the first one resumes it), there is simply no sound. The mute switch at the table is kept in
// localStorage (gin.muted).
//
// For tests: when the page has an array window.ginSounds, each sound actually played adds its name to it;
// a muted or impossible sound adds nothing. The page itself keeps no such list.

import { loadMuted, saveMuted } from "./storage.js";

const VOLUME = 0.5;
const STAGGER = 0.12; // seconds between the sounds of moves that arrive together (a bot's answer)

let context = null; // made at a click or a key: made before, the browser would hold it suspended
let output = null;
let muted = null;
let listening = false;

export function isMuted() {
  if (muted === null) muted = loadMuted();
  return muted;
}

export function setMuted(value) {
  muted = Boolean(value);
  saveMuted(muted);
}

/** Get ready to play at the table: the audio wakes at the next click or key (at once if the person has
 * already clicked in this page, e.g. "Play" on the start page). */
export function listen() {
  if (!listening) {
    listening = true;
    for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, wake, { capture: true, passive: true });
  }
  if (navigator.userActivation?.hasBeenActive) wake();
}

function wake() {
  try {
    if (!context) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      context = new Context();
      output = context.createGain();
      output.gain.value = VOLUME;
      output.connect(context.destination);
    }
    if (context.state === "suspended") context.resume().catch(() => undefined);
  } catch {
    context = null; // no audio here: the game goes on without
  }
}

/** Play the sound `name` (a key of SOUNDS) `delay` seconds from now; whether it was played. */
export function play(name, delay = 0) {
  if (isMuted() || !context || context.state !== "running" || !SOUNDS[name]) return false;
  try {
    SOUNDS[name](context.currentTime + delay);
  } catch {
    return false;
  }
  if (Array.isArray(window.ginSounds)) window.ginSounds.push(name);
  return true;
}

/** The sounds of moves that arrived together (events of the game, in order), one after the other, then
 * "turn" if `yourTurn` (the moves gave this seat the turn). */
export function playMoves(events, yourTurn) {
  const names = [];
  for (const e of events) {
    if (e.type === "draw") names.push("draw");
    else if (e.type === "discard") names.push("discard");
    else if (e.type === "knock") names.push(e.gin || e.big_gin ? "gin" : "knock");
  }
  if (yourTurn) names.push("turn");
  names.forEach((name, i) => play(name, i * STAGGER));
}

// --- the sounds -------------------------------------------------------------------------------------------
/** A tone from `freq` (to `to`) Hz, `length` seconds long, with a quick attack and a fading tail. */
function tone(at, { freq, to = freq, type = "sine", length, volume }) {
  const osc = context.createOscillator();
  const gain = context.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to !== freq) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  envelope(gain, at, length, volume);
  osc.connect(gain).connect(output);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** White noise through a band-pass sweeping from `from` to `to` Hz: a card sliding, a card landing. */
function noise(at, { from, to, length, volume, q = 1 }) {
  const buffer = context.createBuffer(1, Math.ceil(context.sampleRate * length), context.sampleRate);
  const samples = buffer.getChannelData(0);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.random() * 2 - 1;
  const source = context.createBufferSource();
  source.buffer = buffer;
  const filter = context.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  filter.frequency.setValueAtTime(from, at);
  filter.frequency.exponentialRampToValueAtTime(to, at + length);
  const gain = context.createGain();
  envelope(gain, at, length, volume);
  source.connect(filter).connect(gain).connect(output);
  source.start(at);
  source.stop(at + length + 0.02);
}

function envelope(gain, at, length, volume) {
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + Math.min(0.01, length / 4));
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
}

const SOUNDS = {
  draw: (at) => noise(at, { from: 5000, to: 1400, length: 0.13, volume: 0.6, q: 0.7 }),
  discard: (at) => {
    noise(at, { from: 2600, to: 800, length: 0.06, volume: 0.7, q: 1.2 });
    tone(at, { freq: 190, to: 90, length: 0.09, volume: 0.4 });
  },
  turn: (at) => {
    tone(at, { freq: 659, type: "triangle", length: 0.18, volume: 0.25 });
    tone(at + 0.12, { freq: 988, type: "triangle", length: 0.3, volume: 0.25 });
  },
  knock: (at) => {
    for (const t of [at, at + 0.15]) {
      tone(t, { freq: 240, to: 120, length: 0.08, volume: 0.7 });
      noise(t, { from: 1800, to: 600, length: 0.03, volume: 0.5, q: 2 });
    }
  },
  gin: (at) => [523, 659, 784, 1047].forEach((freq, i) => tone(at + i * 0.09, { freq, type: "triangle", length: 0.35, volume: 0.22 })),
  tick: (at) => tone(at, { freq: 1800, type: "square", length: 0.03, volume: 0.08 }),
};
